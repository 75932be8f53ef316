// Keys and circuits: cached by path, explicit open/close, what a key says
// of itself, inputs as snarkjs takes them, circuit logs.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const g16 = require('..');
const { fixture } = require('./common');

const bn = fixture('bn128', 'multiplier');
const bls = fixture('bls12381', 'multiplier');

test('a path opens one key, shared by concurrent first calls', async () => {
  await g16.close();
  const keys = await Promise.all(Array.from({ length: 5 }, () => g16.openKey(bn.file('circuit.zkey'))));
  assert.ok(keys.every((k) => k === keys[0]));
  assert.equal(await g16.openKey(path.relative(process.cwd(), bn.file('circuit.zkey'))), keys[0]);
  assert.ok(keys[0] instanceof g16.Key);
  assert.equal(keys[0].curve, 'bn128');
  assert.equal(keys[0].nPublic, bn.json('verification_key.json').nPublic);
  assert.ok(keys[0].nVars > keys[0].nPublic);
  assert.ok(keys[0].domainSize >= 1);
  const c1 = await g16.openCircuit(bn.file('circuit.wasm'));
  assert.equal(await g16.openCircuit(bn.file('circuit.wasm')), c1);
});

test('close() empties the cache; a closed key refuses new work', async () => {
  const k1 = await g16.openKey(bn.file('circuit.zkey'));
  await g16.close(bn.file('circuit.zkey'));
  await assert.rejects(g16.groth16.prove(k1, bn.file('witness.wtns')), { code: 'argument', message: /closed/ });
  const k2 = await g16.openKey(bn.file('circuit.zkey'));
  assert.notEqual(k2, k1);
  const r = await g16.groth16.prove(k2, bn.file('witness.wtns'));
  assert.deepEqual(r.publicSignals, bn.json('public.json'));
  await g16.close();
  assert.notEqual(await g16.openKey(bn.file('circuit.zkey')), k2);
});

test('closing a key while its proofs run lets them finish', async () => {
  const key = await g16.openKey(bn.file('circuit.zkey'));
  const circuit = await g16.openCircuit(bn.file('circuit.wasm'));
  const running = [g16.groth16.prove(key, bn.file('witness.wtns')),
    g16.groth16.fullProve(bn.json('input.json'), circuit, key)];
  key.close();
  circuit.close();
  const vk = bn.json('verification_key.json');
  for (const r of await Promise.all(running)) assert.equal(await g16.groth16.verify(vk, r.publicSignals, r.proof), true);
});

test('a key replaced on disk is opened afresh', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'g16-node-api-'));
  try {
    const file = path.join(tmp, 'k.zkey');
    fs.copyFileSync(bn.file('circuit.zkey'), file);
    assert.equal((await g16.openKey(file)).curve, 'bn128');
    fs.copyFileSync(bls.file('circuit.zkey'), `${file}.new`);
    fs.renameSync(`${file}.new`, file);
    assert.equal((await g16.openKey(file)).curve, 'bls12381');
    const r = await g16.groth16.prove(file, bls.file('witness.wtns'));
    assert.deepEqual(r.publicSignals, bls.json('public.json'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('inputs as snarkjs takes them: bigints, numbers, hex strings', async () => {
  const want = bn.json('public.json');
  const input = bn.json('input.json');
  const names = Object.keys(input);
  for (const conv of [(v) => BigInt(v), (v) => Number(v), (v) => `0x${BigInt(v).toString(16)}`]) {
    const x = Object.fromEntries(names.map((n) => [n, conv(input[n])]));
    const r = await g16.groth16.fullProve(x, bn.file('circuit.wasm'), bn.file('circuit.zkey'));
    assert.deepEqual(r.publicSignals, want);
  }
});

test('a snarkjs logger in place of the options is accepted', async () => {
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  const r = await g16.groth16.fullProve(bn.json('input.json'), bn.file('circuit.wasm'), bn.file('circuit.zkey'), logger);
  assert.deepEqual(r.publicSignals, bn.json('public.json'));
});

test('proofs from a witness given as snarkjs\'s { type: "mem", data }', async () => {
  const data = new Uint8Array(fs.readFileSync(bn.file('witness.wtns')));
  const r = await g16.groth16.prove(bn.file('circuit.zkey'), { type: 'mem', data });
  assert.deepEqual(r.publicSignals, bn.json('public.json'));
});

test('verify takes public signals as snarkjs does: strings, bigints, numbers', async () => {
  const vk = bn.json('verification_key.json');
  const proof = bn.json('proof.json');
  const pub = bn.json('public.json');
  assert.equal(await g16.groth16.verify(vk, pub.map(BigInt), proof), true);
  assert.equal(await g16.groth16.verify(vk, pub.map(Number), proof), true);
  assert.equal(await g16.groth16.verify(vk, pub.map((s) => Number(s) + 1), proof), false);
});
