pragma circom 2.0.0;

// The witness graph's memory limit (test_graph_limits.c): one output
// computed from an input through a long chain of var operations, so the
// graph has many steps (each its own constant) for a circuit of a few
// signals, whose calculator needs little memory: the graph does not fit
// under a memory limit at the calculator's starting memory.
template LongVar(N) {
    signal input x;
    signal output y;
    var acc = x;
    for (var i = 0; i < N; i++) {
        acc = acc * x + i;
    }
    y <-- acc;
}

component main = LongVar(100000);
