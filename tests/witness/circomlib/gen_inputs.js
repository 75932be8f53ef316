// gen_inputs.js NAME PRIME N OUTDIR: writes OUTDIR/0.json .. OUTDIR/(N-1).json,
// inputs for circuit NAME (NAME_test.circom beside this file, or the
// fixture PRIME/NAME) in the field of PRIME (bn128 or bls12381), and
// prints how many.  Random from a seed fixed per circuit, so a run
// repeats the last; eddsaposeidon, smtverifier and merkle take theirs
// from NAME.json (valid signatures and proofs, made by
// make_valid_inputs.js), as many as it holds.  Some inputs are picked to
// go another way than most: zeros for IsZero, equal pairs for IsEqual, a
// value out of the comparators' 32 bits (their Num2Bits fails: the wasm's
// error).
'use strict';
const fs = require('fs');
const path = require('path');

const PRIMES = {
  bn128: 21888242871839275222246405745257275088548364400416034343698204186575808495617n,
  bls12381: 52435875175126190479447740508185965837690552500527637822603658699938581184513n,
};
const [name, prime, count, outDir] = process.argv.slice(2);
const p = PRIMES[prime];
const n = Number(count);
if (!p || !(n > 0) || !outDir) {
  console.error('usage: gen_inputs.js NAME bn128|bls12381 N OUTDIR');
  process.exit(2);
}

// xorshift64, seeded by the circuit's name and field
let state = 0x9e3779b97f4a7c15n;
for (const ch of `${name}/${prime}`) state = (state * 1099511628211n + BigInt(ch.charCodeAt(0))) & 0xffffffffffffffffn;
function next64() {
  state ^= (state << 13n) & 0xffffffffffffffffn;
  state ^= state >> 7n;
  state ^= (state << 17n) & 0xffffffffffffffffn;
  return state;
}
function below(bits) {
  let v = 0n;
  for (let i = 0; i < bits; i += 64) v = (v << 64n) | next64();
  return v & ((1n << BigInt(bits)) - 1n);
}
const field = () => below(320) % p;
const bit = () => below(1);
const many = (k, f) => Array.from({length: k}, f);
const str = (v) => (Array.isArray(v) ? v.map(str) : v.toString());

const makers = {
  poseidon: () => ({a: many(1, field), b: many(2, field)}),
  mimc: () => ({x: field(), k: field(), ins: many(2, field)}),
  comparators: (i) => {
    const a = below(32);
    // every fourth an equal pair; the last has a value past 32 bits
    const b = i % 4 === 1 ? a : below(32);
    return {in: [i === n - 1 && n > 2 ? (1n << 40n) + a : a, b]};
  },
  iszero: (i) => {
    const a = field();
    return {x: i % 3 === 2 ? 0n : field(), in: [a, i % 2 ? a : field()]};
  },
  bits: () => ({x: below(64), bits: many(64, bit), y: field(), a: bit(), b: bit()}),
  bits_bls: () => ({x: below(64), bits: many(64, bit), a: bit(), b: bit()}),
  sha256: () => ({in: many(256, bit)}),
};

let inputs;
if (makers[name]) {
  inputs = many(n, (_, i) => makers[name](i));
} else {
  const file = path.join(__dirname, `${name}.json`);
  inputs = JSON.parse(fs.readFileSync(file, 'utf8')).slice(0, n);
}
fs.mkdirSync(outDir, {recursive: true});
inputs.forEach((input, i) => {
  const obj = {};
  for (const k of Object.keys(input)) obj[k] = str(input[k]);
  fs.writeFileSync(path.join(outDir, `${i}.json`), JSON.stringify(obj) + '\n');
});
console.log(inputs.length);
