// snarkjs swapped for g16 in a snarkjs-style script by its require line
// alone: both versions run, print the same kind of result, and snarkjs
// accepts g16's proofs.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { snarkjsDir, packageDir, fixture, endSnarkjs } = require('./common');
const snarkjs = require(snarkjsDir);

test.after(endSnarkjs);

const SNARKJS_LINE = 'const snarkjs = require("snarkjs");';

function runScript(file, f) {
  const out = execFileSync(process.execPath, [file, f.file('input.json'), f.file('circuit.wasm'),
    f.file('circuit.zkey'), f.file('verification_key.json'), f.file('witness.wtns')], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

for (const [curve, name] of [['bn128', 'multiplier'], ['bls12381', 'pubmany']]) {
  test(`${curve}/${name}: the snarkjs script runs on g16 with its require line changed`, async () => {
    const f = fixture(curve, name);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'g16-node-script-'));
    try {
      fs.mkdirSync(path.join(tmp, 'node_modules'));
      fs.symlinkSync(snarkjsDir, path.join(tmp, 'node_modules', 'snarkjs'));
      fs.symlinkSync(packageDir, path.join(tmp, 'node_modules', 'g16'));
      const original = fs.readFileSync(path.join(__dirname, 'script', 'prove_and_verify.js'), 'utf8');
      assert.equal(original.split(SNARKJS_LINE).length, 2, 'one require line to change');
      const swapped = original.replace(SNARKJS_LINE, 'const snarkjs = require("g16");');
      const diff = original.split('\n').filter((l, i) => l !== swapped.split('\n')[i]);
      assert.deepEqual(diff, [SNARKJS_LINE]);
      fs.writeFileSync(path.join(tmp, 'with-snarkjs.js'), original);
      fs.writeFileSync(path.join(tmp, 'with-g16.js'), swapped);

      const theirs = runScript(path.join(tmp, 'with-snarkjs.js'), f);
      const ours = runScript(path.join(tmp, 'with-g16.js'), f);
      assert.equal(theirs.verified, true);
      assert.equal(ours.verified, true);
      assert.equal(ours.verified2, true);
      assert.deepEqual(ours.publicSignals, theirs.publicSignals);
      assert.deepEqual(Object.keys(ours.proof), Object.keys(theirs.proof));
      assert.equal(ours.proof.curve, theirs.proof.curve);
      const vk = f.json('verification_key.json');
      assert.equal(await snarkjs.groth16.verify(vk, ours.publicSignals, ours.proof), true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
}
