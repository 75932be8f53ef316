pragma circom 2.0.0;

// The time limit's tests: steps(x) counts x up from 0 in steps of 2, so
// it ends for an even x and, for an odd one, runs about p / 2 steps
// (forever).  The witness calculation evaluates it: x is a signal.
function steps(x) {
    var i = 0;
    var n = 0;
    while (i != x) {
        i += 2;
        n += 1;
    }
    return n;
}

template Loop() {
    signal input x;
    signal input y;
    signal output half;
    signal output z;
    half <-- steps(x);
    z <== x * y + half;
}

component main {public [x]} = Loop();
