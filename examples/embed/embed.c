/* embed: prove a circom/snarkjs witness from memory buffers with libg16.
 *
 *   cc embed.c $(pkg-config --cflags --libs g16) -o embed
 *   ./embed circuit.zkey witness.wtns public.json > proof.json
 *
 * The key is read into memory once and could prove any number of
 * witnesses; a service would keep it open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <g16.h>

/* The whole file in a malloc'd buffer, or NULL with a message. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f) fclose(f);
    if (!buf) fprintf(stderr, "embed: %s: cannot read\n", path);
    *len = buf ? (size_t)n : 0;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: embed KEY.zkey WITNESS.wtns PUBLIC.json  (proof.json on stdout)\n");
        return 2;
    }
    size_t zlen, wlen;
    unsigned char *zkey = slurp(argv[1], &zlen), *wtns = slurp(argv[2], &wlen);
    char err[512], *proof = NULL, *pub = NULL;
    g16_key *key = NULL;
    g16_options opt;
    g16_options_default(&opt);
    int rc = !zkey || !wtns || g16_key_open_buffer(zkey, zlen, argv[1], &key, err, sizeof err) ||
             g16_prove(key, wtns, wlen, argv[2], &opt, &proof, &pub, NULL, err, sizeof err) ||
             g16_write_file(argv[3], pub, strlen(pub), err, sizeof err);
    if (rc && zkey && wtns) fprintf(stderr, "embed: %s\n", err);
    if (!rc) fputs(proof, stdout);
    free(proof);
    free(pub);
    g16_key_free(key);
    free(zkey); /* the key pointed into it: freed after the key */
    free(wtns);
    return rc ? 1 : 0;
}
