pragma circom 2.0.0;

// The witness graph's tests (test_graph.c): a value chosen by a branch on
// an input (the graph guards it: inputs taking the other branch fall back
// to the wasm), a division whose divisor the input may make zero, bit
// operations, and an assert on an input.
template Branch() {
    signal input x;
    signal input y;
    signal output z;
    signal output q;
    signal output w;
    signal output bits[4];
    var v;
    if (x == 0) {
        v = y + 1;
    } else {
        v = y * x;
    }
    z <-- v;
    q <-- y / (x + 1);
    w <== x * y;
    for (var i = 0; i < 4; i++) {
        bits[i] <-- (y >> i) & 1;
    }
    assert(y != 7);
}

component main = Branch();
