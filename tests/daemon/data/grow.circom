pragma circom 2.0.0;

// The daemon tests' circuit whose witness calculator grows its memory with
// the input d: each level of f's recursion keeps a frame of 4096 field
// elements (d = 10 needs about 1 MiB beyond the start, d = 100 about 15 MiB).
function f(n) {
    var big[4096];
    if (n == 0) {
        return 0;
    }
    big[n % 4096] = n;
    return f(n - 1) + big[n % 4096];
}

template Grow() {
    signal input d;
    signal input a;
    signal output c;
    c <== a * a;
    signal output e;
    e <-- f(d);
}

component main = Grow();
