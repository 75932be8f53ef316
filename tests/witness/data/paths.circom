pragma circom 2.0.0;

// The witness graphs' bound (test_graph_paths.c): each x in 0..9 takes
// its own path through the branches below (x == i is true for one i
// only), and every other x one more: eleven paths, more than a circuit
// keeps graphs of.
template Paths() {
    signal input x;
    signal input y;
    signal output z;
    signal output w;
    var v = 100;
    for (var i = 0; i < 10; i++) {
        if (x == i) {
            v = i * i + 7;
        }
    }
    z <-- v * y;
    w <== x * y;
}

component main = Paths();
