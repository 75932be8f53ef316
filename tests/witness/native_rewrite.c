/* native_rewrite FILE.c COUNT: applies libg16's rewrites of wasm2c's
 * output (native_fr.c, then ticks.c) to FILE.c as a circuit build does;
 * fails unless native_fr.c replaced exactly COUNT functions (a fixture
 * whose runtime stops matching its hashes must show up as a failure, not
 * as a silently slower calculator). */
#include <stdio.h>
#include <stdlib.h>

#include "witness/witness.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: native_rewrite FILE.c COUNT\n");
        return 2;
    }
    char err[512];
    size_t replaced;
    if (witness_add_native(argv[1], argv[1], &replaced, err, sizeof err) ||
        witness_add_ticks(argv[1], argv[1], err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (replaced != strtoul(argv[2], NULL, 10)) {
        fprintf(stderr, "%s: %zu runtime functions replaced, expected %s\n", argv[1], replaced,
                argv[2]);
        return 1;
    }
    return 0;
}
