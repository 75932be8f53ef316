/* test_two_circuits A.wasm B.wasm CACHE_DIR: two circuits open at once,
 * both loaded from the cache, are each their own: the dynamic loader
 * knows a loaded object by the name it was opened under, and a name
 * reused for the second (the same /proc/self/fd number) once gave the
 * first circuit back.  A and B must differ in witness size or curve. */
#include <stdio.h>
#include <string.h>

#include "g16_witness.h"

typedef struct {
    uint32_t size;
    const char *curve;
} shape;

static int open_shape(const char *wasm, const char *cache, g16_circuit **c, shape *s)
{
    char err[512];
    if (g16_circuit_open(wasm, cache, c, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    s->size = g16_circuit_witness_size(*c);
    s->curve = g16_circuit_curve(*c);
    return 0;
}

static int differ(const shape *a, const shape *b)
{
    return a->size != b->size || !a->curve != !b->curve || (a->curve && strcmp(a->curve, b->curve));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_two_circuits A.wasm B.wasm CACHE_DIR\n");
        return 2;
    }
    g16_circuit *a, *b;
    shape alone[2], together[2];
    /* alone, one after the other (compiling into the cache if need be) */
    for (int i = 0; i < 2; i++) {
        if (open_shape(argv[1 + i], argv[3], &a, &alone[i])) return 1;
        g16_circuit_close(a);
    }
    if (!differ(&alone[0], &alone[1])) {
        fprintf(stderr, "FAIL: %s and %s look alike: pick two other circuits\n", argv[1], argv[2]);
        return 1;
    }
    /* together, both from the cache */
    if (open_shape(argv[1], argv[3], &a, &together[0]) ||
        open_shape(argv[2], argv[3], &b, &together[1]))
        return 1;
    int bad = differ(&alone[0], &together[0]) || differ(&alone[1], &together[1]);
    if (bad)
        fprintf(stderr, "FAIL: opened together, %s has %u values (%s), alone %u (%s)\n", argv[2],
                together[1].size, together[1].curve ? together[1].curve : "?", alone[1].size,
                alone[1].curve ? alone[1].curve : "?");
    g16_circuit_close(a);
    g16_circuit_close(b);
    return bad;
}
