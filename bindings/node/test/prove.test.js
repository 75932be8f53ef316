// fullProve, prove (witness file and bytes) and verify on every fixture of
// both curves, each proof checked by snarkjs's own verify as well as g16's.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const g16 = require('..');
const { snarkjsDir, fixtures, endSnarkjs, tampered } = require('./common');
const snarkjs = require(snarkjsDir);

test.after(endSnarkjs);

// The shape snarkjs gives: the same keys in the same order, decimal strings.
function assertSnarkjsShape(got, reference, curve) {
  assert.deepEqual(Object.keys(got), ['proof', 'publicSignals']);
  assert.deepEqual(Object.keys(got.proof), Object.keys(reference));
  assert.equal(got.proof.protocol, 'groth16');
  assert.equal(got.proof.curve, curve);
  for (const k of ['pi_a', 'pi_b', 'pi_c']) {
    assert.equal(got.proof[k].length, reference[k].length, k);
    for (const v of got.proof[k].flat()) assert.match(v, /^(0|[1-9][0-9]*)$/, k);
  }
}

const all = fixtures();

test('the fixtures of both curves are there', () => {
  assert.deepEqual([...new Set(all.map((f) => f.curve))], ['bls12381', 'bn128']);
});

for (const f of all) {
  test(`${f.curve}/${f.name}: fullProve, prove and verify agree with snarkjs`, async () => {
    const vk = f.json('verification_key.json');
    const opts = { device: 'cpu' };
    const results = [
      await g16.groth16.fullProve(f.json('input.json'), f.file('circuit.wasm'), f.file('circuit.zkey'), opts),
      await g16.groth16.prove(f.file('circuit.zkey'), f.file('witness.wtns'), opts),
      await g16.groth16.prove(f.file('circuit.zkey'), fs.readFileSync(f.file('witness.wtns')), opts),
    ];
    const referencePublic = f.json('public.json');
    for (const r of results) {
      assertSnarkjsShape(r, f.json('proof.json'), f.curve);
      assert.deepEqual(r.publicSignals, referencePublic);
      assert.equal(await snarkjs.groth16.verify(vk, r.publicSignals, r.proof), true, 'snarkjs verify');
      assert.equal(await g16.groth16.verify(vk, r.publicSignals, r.proof), true, 'g16 verify');
    }
    const bad = tampered(results[0].proof);
    assert.equal(await g16.groth16.verify(vk, results[0].publicSignals, bad), false);
    assert.equal(await snarkjs.groth16.verify(vk, results[0].publicSignals, bad), false);
    const key = await g16.openKey(f.file('circuit.zkey'));
    assert.deepEqual(await key.exportVerificationKey(), vk);
    assert.equal(key.curve, f.curve);
    assert.equal(key.nPublic, vk.nPublic);
  });
}
