pragma circom 2.0.0;

// The witness graphs' memory limit together (graph_paths_memory.sh): a
// long chain of var operations (as longvar.circom: a graph of megabytes
// for a calculator of little memory), then a branch on the input, so
// x = 0 and x != 0 each get a graph of about the same size.
template PathsMem(N) {
    signal input x;
    signal output y;
    var acc = x;
    for (var i = 0; i < N; i++) {
        acc = acc * x + i;
    }
    if (x == 0) {
        acc = acc + 1;
    }
    y <-- acc;
}

component main = PathsMem(30000);
