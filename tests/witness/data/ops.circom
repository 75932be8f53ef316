pragma circom 2.0.0;

// The witness graph's operations beyond add, sub, mul, div and equality
// (test_graph_ops.c): circom's comparisons, logical operations, bit
// operations, integer division and remainder, pow, and shifts by constant
// and input-dependent amounts, each on inputs, so that each is a node of
// the graph.  Compiled for both primes (ops_bn128.wasm,
// ops_bls12381.wasm: circom2 ops.circom --wasm [--prime bls12381]).
template Ops() {
    signal input x;
    signal input y;
    signal input s;
    signal output o[32];
    var k = s & 511;
    o[0] <-- x < y;
    o[1] <-- x > y;
    o[2] <-- x <= y;
    o[3] <-- x >= y;
    o[4] <-- x < 5;
    o[5] <-- (x && y) + 2 * (x || s) + 4 * !x + 8 * !(x < y);
    o[6] <-- ~x;
    o[7] <-- x \ y;
    o[8] <-- x % y;
    o[9] <-- x ** y;
    o[10] <-- x ** 5;
    o[11] <-- x >> k;
    o[12] <-- x << k;
    o[13] <-- x >> (0 - k);
    o[14] <-- x << (0 - k);
    o[15] <-- x >> s;
    o[16] <-- x << s;
    o[17] <-- x & y;
    o[18] <-- x | y;
    o[19] <-- x ^ y;
    o[20] <-- (x >> 7) & 1;
    o[21] <-- x >> 253;
    o[22] <-- x >> 254;
    o[23] <-- x << 254;
    o[24] <-- x >> 300;
    o[25] <-- x << -3;
    o[26] <-- x >> -3;
    o[27] <-- ~(x & y) ^ (y | s);
    o[28] <-- (x < y) * y + (x >= s) * x;
    o[29] <-- s \ 7 + s % 7;
    o[30] <-- x ** s;
    o[31] <-- y <= s;
}

component main = Ops();
