pragma circom 2.0.0;

// Benchmark circuit for bench/prover/run.sh, shaped like real circuits: most
// constraints are bit decompositions and AND gates (so most witness values
// are 0 or 1, as in hash circuits), the rest a dense multiply/add chain of
// full-width field elements.  Compiled with --O0 (no simplification: at
// 2^20 circom's --O1 takes many times longer), so every signal-to-signal
// copy into a component's input is a constraint too; the count is exact:
//   34 + 85*NB + NM + 2
// (seed range check 33 + its input copy 1, per block 83 + its two input
// copies, chain NM, chain start 1, output 1).  run.sh picks NB and NM so
// that constraints + 2 public signals fill a domain of 2^k exactly.
// Every block is the same template instance (no template parameter varies
// with the block), so the circuit's code, the .wasm and circom's C++, stays
// the same size at any k: the witness calculators then run a loop, as they
// do for a chain of hashes, rather than compile one function per block.

// v < 2^n as n bits: n boolean constraints + 1 linear sum constraint.
template Bits(n) {
    signal input v;
    signal output b[n];
    var lc = 0;
    var e = 1;
    for (var j = 0; j < n; j++) {
        b[j] <-- (v >> j) & 1;
        b[j] * (b[j] - 1) === 0;
        lc += b[j] * e;
        e = e + e;
    }
    lc === v;
}

// One block: sq = s*s + 1 (< 2^64), its 64 bits, 16 ANDs of bit pairs, and
// the next 32-bit state from the middle bits.  83 constraints.
template Block() {
    signal input s;
    signal output next;
    signal output and[16];
    signal sq;
    sq <== s * s + 1;                       // 1
    component bits = Bits(64);              // 65
    bits.v <== sq;
    for (var j = 0; j < 16; j++) {
        and[j] <== bits.b[j] * bits.b[j + 32];  // 16
    }
    var lc = 0;
    var e = 1;
    for (var j = 0; j < 32; j++) {
        lc += bits.b[j + 16] * e;
        e = e + e;
    }
    next <== lc;                            // 1
}

template Bench(NB, NM) {
    signal input seed;   // private, < 2^32
    signal input x;      // public input
    signal output out;   // public output

    component r = Bits(32);                 // 33
    r.v <== seed;

    component blk[NB];
    for (var i = 0; i < NB; i++) {
        blk[i] = Block();
        blk[i].s <== (i == 0) ? seed : blk[i - 1].next;
    }

    signal m[NM + 1];
    m[0] <== x * seed;                      // 1
    for (var j = 0; j < NM; j++) {
        m[j + 1] <== m[j] * m[j] + x;       // NM
    }
    out <== m[NM] * (blk[NB - 1].next + 1); // 1
}
