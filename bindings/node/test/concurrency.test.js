// Many proofs in flight from one process: all correct, and the event loop
// keeps turning while they run (the work is on worker threads).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const g16 = require('..');
const { snarkjsDir, fixture, endSnarkjs } = require('./common');
const snarkjs = require(snarkjsDir);

test.after(endSnarkjs);

test('20 proofs in flight at once (both curves, fullProve and prove), all valid', async () => {
  const fx = [fixture('bn128', 'multiplier'), fixture('bls12381', 'pubmany'),
    fixture('bn128', 'pubmany'), fixture('bls12381', 'multiplier')];
  const jobs = Array.from({ length: 20 }, (_, i) => {
    const f = fx[i % fx.length];
    const p = i % 2
      ? g16.groth16.fullProve(f.json('input.json'), f.file('circuit.wasm'), f.file('circuit.zkey'))
      : g16.groth16.prove(f.file('circuit.zkey'), f.file('witness.wtns'));
    return { f, p };
  });
  const results = await Promise.all(jobs.map((j) => j.p));
  // fresh blinding each time: twenty different proofs
  assert.equal(new Set(results.map((r) => r.proof.pi_a[0])).size, 20);
  for (let i = 0; i < 20; i++) {
    const { f } = jobs[i];
    const vk = f.json('verification_key.json');
    assert.deepEqual(results[i].publicSignals, f.json('public.json'), `proof ${i}`);
    assert.equal(await snarkjs.groth16.verify(vk, results[i].publicSignals, results[i].proof), true, `proof ${i}`);
    assert.equal(await g16.groth16.verify(vk, results[i].publicSignals, results[i].proof), true, `proof ${i}`);
  }
});

test('the event loop turns while a proof runs', async () => {
  const f = fixture('bn128', 'sha256');
  const key = await g16.openKey(f.file('circuit.zkey'));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  // Were the proof computed on this thread, the promise would settle
  // before any timer could fire.
  const r = await g16.groth16.prove(key, f.file('witness.wtns'));
  clearInterval(timer);
  assert.ok(ticks > 0, 'no timer fired while proving');
  assert.deepEqual(r.publicSignals, f.json('public.json'));
});
