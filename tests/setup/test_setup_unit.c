/* setup unit tests: BLAKE2b against RFC 7693 / reference vectors (the
 * key's hash and the seeded toxic waste depend on it). */
#include <string.h>

#include "common/test.h"
#include "setup/blake2b.h"

static void hex(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

static void check_digest(const void *msg, size_t len, size_t outlen, const char *want)
{
    uint8_t d[64];
    char h[129];
    blake2b_state s;
    blake2b_init(&s, outlen);
    blake2b_update(&s, msg, len);
    blake2b_final(&s, d);
    hex(h, d, outlen);
    CHECK(!strcmp(h, want));
}

int main(void)
{
    /* RFC 7693 appendix A. */
    check_digest("abc", 3, 64,
                 "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                 "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    check_digest("", 0, 64,
                 "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
                 "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
    check_digest("", 0, 32, "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8");
    /* Streaming in odd pieces equals one call, across block boundaries. */
    uint8_t buf[1000], one[64], parts[64];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 7 + 3);
    blake2b_state s;
    blake2b_init(&s, 64);
    blake2b_update(&s, buf, sizeof buf);
    blake2b_final(&s, one);
    blake2b_init(&s, 64);
    for (size_t off = 0, step = 1; off < sizeof buf; off += step, step = step * 3 % 257 + 1)
        blake2b_update(&s, buf + off, off + step > sizeof buf ? sizeof buf - off : step);
    blake2b_final(&s, parts);
    CHECK(!memcmp(one, parts, 64));
    blake2b_init(&s, 64);
    blake2b_update(&s, buf, 128);
    blake2b_final(&s, parts);
    uint8_t ref[64];
    blake2b_init(&s, 64);
    blake2b_update(&s, buf, 64);
    blake2b_update(&s, buf + 64, 64);
    blake2b_final(&s, ref);
    CHECK(!memcmp(ref, parts, 64));
    return test_finish("test_setup_unit");
}
