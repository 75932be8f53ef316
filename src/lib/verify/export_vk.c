/* The verification key of a .zkey, as `snarkjs zkey export
 * verificationkey` writes it (see verify.h).  The zkey holds the points in
 * Montgomery form with the same R as our fields, so its bytes are copied
 * into field elements as they are (little-endian hosts only, as field.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16.h"
#include "pairing/pairing.h"
#include "verify/verify.h"

static json_t *dec(const char *s) { return json_string(s); }

/* One curve's readers and JSON writers, stamped for both curves. */
#define DEFINE_EXPORT(C)                                                                           \
    static json_t *C##_fq_json(const C##_fq *a)                                                    \
    {                                                                                              \
        char buf[160];                                                                             \
        C##_fq_to_dec(buf, a);                                                                     \
        return dec(buf);                                                                           \
    }                                                                                              \
    static json_t *C##_fq2_json(const C##_fq2 *a)                                                  \
    {                                                                                              \
        return json_pack("[oo]", C##_fq_json(&a->c0), C##_fq_json(&a->c1));                        \
    }                                                                                              \
    /* Reads n coordinates (Montgomery, little-endian) at p; 0 if one is not  \
     * reduced. */                    \
    static int C##_read_fq(C##_fq *out, const uint8_t *p, int n)                                   \
    {                                                                                              \
        for (int i = 0; i < n; i++) {                                                              \
            memcpy(out[i].v, p + (size_t)i * sizeof out[i].v, sizeof out[i].v);                    \
            if (!C##_fq_is_canonical(&out[i])) return 0;                                           \
        }                                                                                          \
        return 1;                                                                                  \
    }                                                                                              \
    /* ffjavascript's toObject: [x, y, "1"], infinity ["0", "1", "0"]. */                          \
    json_t *vk_##C##_g1_json(const C##_g1_affine *p)                                               \
    {                                                                                              \
        if (C##_g1_affine_is_infinity(p)) return json_pack("[sss]", "0", "1", "0");                \
        return json_pack("[oos]", C##_fq_json(&p->x), C##_fq_json(&p->y), "1");                    \
    }                                                                                              \
    json_t *vk_##C##_g2_json(const C##_g2_affine *p)                                               \
    {                                                                                              \
        if (C##_g2_affine_is_infinity(p))                                                          \
            return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");                      \
        return json_pack("[oo[ss]]", C##_fq2_json(&p->x), C##_fq2_json(&p->y), "1", "0");          \
    }                                                                                              \
    static json_t *C##_fq12_json(const C##_fq12 *a)                                                \
    {                                                                                              \
        const C##_fq6 *h[2] = {&a->c0, &a->c1};                                                    \
        json_t *out = json_array();                                                                \
        for (int i = 0; i < 2; i++)                                                                \
            json_array_append_new(out,                                                             \
                                  json_pack("[ooo]", C##_fq2_json(&h[i]->c0),                      \
                                            C##_fq2_json(&h[i]->c1), C##_fq2_json(&h[i]->c2)));    \
        return out;                                                                                \
    }                                                                                              \
    static int C##_g1_read(C##_g1_affine *p, const uint8_t *b)                                     \
    {                                                                                              \
        return C##_read_fq(&p->x, b, 2) && C##_g1_affine_on_curve(p);                              \
    }                                                                                              \
    static int C##_g2_read(C##_g2_affine *p, const uint8_t *b)                                     \
    {                                                                                              \
        return C##_read_fq(&p->x.c0, b, 4) && C##_g2_affine_on_curve(p);                           \
    }
DEFINE_EXPORT(bn254)
DEFINE_EXPORT(bls12_381)

/* Adds "key" (a string literal): point of group G read at bytes; bad
 * gets the problem of a point off the curve or at infinity, which no
 * setup gives alpha, beta, gamma or delta and which would make the key
 * accept forged proofs (verify_template.h, V_KEY_AT_INFINITY). */
#define ADD_POINT(C, G, vk, key, bytes)                                                            \
    do {                                                                                           \
        C##_##G##_affine pt_;                                                                      \
        if (!C##_##G##_read(&pt_, bytes)) {                                                        \
            bad = key " is not a reduced point on the curve";                                      \
            goto fail;                                                                             \
        }                                                                                          \
        if (C##_##G##_affine_is_infinity(&pt_)) {                                                  \
            bad = key " is the point at infinity (a degenerate key that accepts forged proofs)";   \
            goto fail;                                                                             \
        }                                                                                          \
        json_object_set_new(vk, key, vk_##C##_##G##_json(&pt_));                                   \
    } while (0)

#define DEFINE_VK(C)                                                                               \
    static json_t *C##_vk(const zkey *z, const char **bad_field)                                   \
    {                                                                                              \
        const char *bad = NULL;                                                                    \
        json_t *vk = json_object(), *ic = json_array();                                            \
        C##_g1_affine a;                                                                           \
        C##_g2_affine b;                                                                           \
        C##_fq12 ab;                                                                               \
        json_object_set_new(vk, "protocol", json_string("groth16"));                               \
        json_object_set_new(vk, "curve", json_string(formats_curve_name(z->curve)));               \
        json_object_set_new(vk, "nPublic", json_integer(z->n_public));                             \
        ADD_POINT(C, g1, vk, "vk_alpha_1", z->alpha1);                                             \
        ADD_POINT(C, g2, vk, "vk_beta_2", z->beta2);                                               \
        ADD_POINT(C, g2, vk, "vk_gamma_2", z->gamma2);                                             \
        ADD_POINT(C, g2, vk, "vk_delta_2", z->delta2);                                             \
        C##_g1_read(&a, z->alpha1);                                                                \
        C##_g2_read(&b, z->beta2);                                                                 \
        C##_pairing(&ab, &a, &b);                                                                  \
        json_object_set_new(vk, "vk_alphabeta_12", C##_fq12_json(&ab));                            \
        for (uint32_t i = 0; i <= z->n_public; i++) {                                              \
            if (!C##_g1_read(&a, z->ic + (size_t)i * 2 * z->n8q)) {                                \
                bad = "IC is not a reduced point on the curve";                                    \
                goto fail;                                                                         \
            }                                                                                      \
            json_array_append_new(ic, vk_##C##_g1_json(&a));                                       \
        }                                                                                          \
        json_object_set_new(vk, "IC", ic);                                                         \
        return vk;                                                                                 \
    fail:                                                                                          \
        *bad_field = bad;                                                                          \
        json_decref(ic);                                                                           \
        json_decref(vk);                                                                           \
        return NULL;                                                                               \
    }
DEFINE_VK(bn254)
DEFINE_VK(bls12_381)

int vk_export_json(const zkey *z, const char *name, char **out, char *err, size_t errlen)
{
    const char *bad = NULL;
    json_t *vk;
    *out = NULL;
    if (!name) name = "input";
    if (z->protocol != ZKEY_PROTOCOL_GROTH16) {
        snprintf(err, errlen, "%s: not a Groth16 key", name);
        return 1;
    }
    if (z->curve == FORMATS_CURVE_BN128 && z->n8q == sizeof(bn254_fq))
        vk = bn254_vk(z, &bad);
    else if (z->curve == FORMATS_CURVE_BLS12381 && z->n8q == sizeof(bls12_381_fq))
        vk = bls12_381_vk(z, &bad);
    else {
        snprintf(err, errlen, "%s: unsupported curve", name);
        return 1;
    }
    if (!vk) {
        snprintf(err, errlen, "%s: %s", name, bad);
        return 1;
    }
    *out = json_dumps(vk, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(vk);
    if (!*out) {
        snprintf(err, errlen, "%s: out of memory", name);
        return 1;
    }
    return 0;
}

g16_status g16_key_vk_json(const g16_key *key, char **vk_json, char *err, size_t errlen)
{
    const char *name;
    const zkey *z = groth16_key_zkey(key, &name);
    return vk_export_json(z, name, vk_json, err, errlen) ? G16_ERR_FORMAT : G16_OK;
}
