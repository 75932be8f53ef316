pragma circom 2.0.0;

// The witness tests' circuit: a scalar and a 2x2 array input, an assert
// that fails for a >= 10, a log() line, and a recursive function whose
// depth the input chooses (deep enough exhausts the calculator's stack).
function depth(n) {
    if (n == 0) {
        return 0;
    }
    return depth(n - 1) + 1;
}

template Check() {
    signal input a;
    signal input b[2][2];
    signal input d;
    signal output c;
    signal output e;
    assert(a < 10);
    log("a is", a);
    c <== a * b[1][1];
    e <-- depth(d);
}

component main {public [a]} = Check();
