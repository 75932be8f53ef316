/* The setup's arithmetic for both curves, from one template. */
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "setup/setup_internal.h"
#include "util/parallel.h"

#define FB_G  bn254_g1
#define FB_FE bn254_fq
#define FB_FR bn254_fr
#include "setup/fixed_base_template.h"
#define FB_G  bn254_g2
#define FB_FE bn254_fq2
#define FB_FR bn254_fr
#include "setup/fixed_base_template.h"
#define FB_G  bls12_381_g1
#define FB_FE bls12_381_fq
#define FB_FR bls12_381_fr
#include "setup/fixed_base_template.h"
#define FB_G  bls12_381_g2
#define FB_FE bls12_381_fq2
#define FB_FR bls12_381_fr
#include "setup/fixed_base_template.h"

#define SC         bn254
#define SC_FR      bn254_fr
#define SC_G1      bn254_g1
#define SC_G2      bn254_g2
#define SC_FR_BITS BN254_FR_BITS
#include "setup/setup_curve_template.h"

#define SC         bls12_381
#define SC_FR      bls12_381_fr
#define SC_G1      bls12_381_g1
#define SC_G2      bls12_381_g2
#define SC_FR_BITS BLS12_381_FR_BITS
#include "setup/setup_curve_template.h"
