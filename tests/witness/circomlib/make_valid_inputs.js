// make_valid_inputs.js OUTDIR: writes OUTDIR/eddsaposeidon.json,
// OUTDIR/smtverifier.json and OUTDIR/merkle.json, the inputs of
// eddsaposeidon_test.circom, smtverifier_test.circom and the bn128/merkle
// fixture (Poseidon(2) Merkle proofs of depth 20) that need circomlibjs
// to make (valid signatures, tree proofs, roots).  Run once, its output
// committed beside it (the tests need no circomlibjs):
//   npm install --prefix /tmp/cljs circomlibjs@0.1.7
//   NODE_PATH=/tmp/cljs/node_modules node make_valid_inputs.js tests/witness/circomlib
// Keys, messages and tree entries come from a fixed seed.
'use strict';
const fs = require('fs');
const path = require('path');
const {buildEddsa, buildPoseidon, newMemEmptyTrie} = require('circomlibjs');

let state = 0x2545f4914f6cdd1dn;
function next64() {
  state ^= (state << 13n) & 0xffffffffffffffffn;
  state ^= state >> 7n;
  state ^= (state << 17n) & 0xffffffffffffffffn;
  return state;
}
const bytes = (k) => Buffer.from(Array.from({length: k}, () => Number(next64() & 0xffn)));
const below = (m) => {
  let v = 0n;
  for (let i = 0; i < 5; i++) v = (v << 64n) | next64();
  return v % m;
};
const str = (v) => (Array.isArray(v) ? v.map(str) : v.toString());
const strs = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, str(v)]));

async function signatures(count) {
  const eddsa = await buildEddsa();
  const F = eddsa.babyJub.F;
  const out = [];
  for (let i = 0; i < count; i++) {
    const prv = bytes(32);
    const pub = eddsa.prv2pub(prv);
    const msg = F.e(below(F.p));
    const sig = eddsa.signPoseidon(prv, msg);
    if (!eddsa.verifyPoseidon(msg, sig, pub)) throw new Error('a signature does not verify');
    const input = {
      enabled: 1n,
      Ax: F.toObject(pub[0]),
      Ay: F.toObject(pub[1]),
      S: sig.S,
      R8x: F.toObject(sig.R8[0]),
      R8y: F.toObject(sig.R8[1]),
      M: F.toObject(msg),
    };
    // the last: a forged signature (R8x off by one), which the circuit's
    // checks refuse (the wasm's error)
    if (i === count - 1) input.R8x = F.toObject(F.add(sig.R8[0], F.e(1)));
    out.push(strs(input));
  }
  return out;
}

async function proofs(count) {
  const tree = await newMemEmptyTrie();
  const F = tree.F;
  const keys = [];
  for (let i = 0; i < 12; i++) {
    const key = next64() & 0xffffn;
    if (keys.includes(key)) continue;
    keys.push(key);
    await tree.insert(key, below(F.p));
  }
  const out = [];
  for (let i = 0; i < count; i++) {
    // inclusion of an entry, exclusion of a key not in the tree, alternately
    const inclusion = i % 2 === 0;
    let key = keys[i % keys.length];
    if (!inclusion) do key = next64() & 0xffffn; while (keys.includes(key));
    const res = await tree.find(F.e(key));
    if (res.found !== inclusion) throw new Error('the tree disagrees');
    const siblings = res.siblings.map((s) => F.toObject(s));
    while (siblings.length < 10) siblings.push(0n);
    out.push(strs({
      enabled: 1n,
      root: F.toObject(tree.root),
      siblings,
      oldKey: inclusion || res.isOld0 ? 0n : F.toObject(res.notFoundKey),
      oldValue: inclusion || res.isOld0 ? 0n : F.toObject(res.notFoundValue),
      isOld0: !inclusion && res.isOld0 ? 1n : 0n,
      key,
      value: inclusion ? F.toObject(res.foundValue) : 0n,
      fnc: inclusion ? 0n : 1n,
    }));
  }
  return out;
}

// Merkle proofs for the fixture: random leaves, siblings and path bits,
// the root computed; the last with a root off by one, which the circuit's
// `root === cur[depth]` refuses (the wasm's error).
async function merkleProofs(count, depth) {
  const poseidon = await buildPoseidon();
  const F = poseidon.F;
  const out = [];
  for (let i = 0; i < count; i++) {
    const leaf = below(F.p);
    const pathElements = Array.from({length: depth}, () => below(F.p));
    const pathIndices = Array.from({length: depth}, () => next64() & 1n);
    let cur = leaf;
    for (let j = 0; j < depth; j++) {
      const pair = pathIndices[j] ? [pathElements[j], cur] : [cur, pathElements[j]];
      cur = F.toObject(poseidon(pair));
    }
    if (i === count - 1) cur = (cur + 1n) % F.p;
    out.push(strs({leaf, root: cur, pathElements, pathIndices}));
  }
  return out;
}

(async () => {
  const dir = process.argv[2];
  const write = (name, v) => fs.writeFileSync(path.join(dir, name), JSON.stringify(v, null, 1) + '\n');
  write('eddsaposeidon.json', await signatures(8));
  write('smtverifier.json', await proofs(8));
  write('merkle.json', await merkleProofs(8, 20));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
