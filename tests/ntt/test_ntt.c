/* NTT tests: roots against snarkjs' constants and definitions, transforms
 * against naive O(n^2) evaluation, and larger sizes by round trips, spot
 * checks and thread-count independence. */
#include <stdlib.h>
#include <string.h>

#include "ntt/ntt_internal.h"
#include "../common/test.h"

/* Small shapes push tiny transforms through multi-pass, chunked and
 * degenerate-block paths that the default shape only takes above 2^12. */
static const struct ntt_shape test_shapes[] = {
    {12, 8, 4}, {1, 1, 0}, {2, 2, 1}, {3, 2, 2}, {0, 3, 1}, {2, 3, 5},
};
enum { test_shape_count = sizeof test_shapes / sizeof test_shapes[0] };
static const int test_thread_counts[] = {1, 2, 3, 7};

/* Roots of unity used by snarkjs / circom (wasmcurves build_fft.js w[s]). */
#define BN254_ROOT_28                                                                              \
    "19103219067921713944291392827692070036145651957329286315305642004821462161904"
#define BLS12_381_ROOT_32                                                                          \
    "937917089079007706106976984802249742464848817460758522850752807661925904159"

#define TFR            bn254_fr
#define TFR_MAX_LOG    28
#define TFR_KNOWN_ROOT BN254_ROOT_28
#include "ntt_test_template.h"

#define TFR            bls12_381_fr
#define TFR_MAX_LOG    32
#define TFR_KNOWN_ROOT BLS12_381_ROOT_32
#include "ntt_test_template.h"

int main(void)
{
    bn254_fr_test_all();
    bls12_381_fr_test_all();
    return test_finish("test_ntt");
}
