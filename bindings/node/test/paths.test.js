// A path with a NUL byte is refused, as Node's fs refuses it, for every
// path argument: in C the path would end at the NUL, so
// fullProve(input, "/x/a\0evil", zkey) opened /x/a (and proved with it).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const g16 = require('..');
const native = require('../build/Release/g16.node');
const { fixture } = require('./common');

const bn = fixture('bn128', 'multiplier');
const wasm = bn.file('circuit.wasm');
const zkey = bn.file('circuit.zkey');
const wtns = bn.file('witness.wtns');
const input = bn.json('input.json');

// Rejects (or throws) a TypeError of code 'argument' naming the argument.
async function refused(call, name) {
  await assert.rejects(async () => call(), (e) => {
    assert.ok(e instanceof TypeError, `a TypeError, not ${e}`);
    assert.equal(e.code, 'argument', e.message);
    if (name) {
      assert.match(e.message, new RegExp(`'${name.replace('.', '\\.')}' must be a path without null bytes`));
      assert.match(e.message, /evil/, 'the message shows the path received');
    } else {
      assert.match(e.message, /null bytes/);
    }
    return true;
  });
}

test('fullProve: the circuit, the key and options.cacheDir', async () => {
  await refused(() => g16.groth16.fullProve(input, `${wasm}\0evil`, zkey), 'wasmFile');
  await refused(() => g16.groth16.fullProve(input, wasm, `${zkey}\0evil`), 'zkeyFile');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'g16-node-paths-'));
  try {
    await refused(() => g16.groth16.fullProve(input, wasm, zkey, { cacheDir: `${dir}\0evil` }),
      'options.cacheDir');
    assert.deepEqual(fs.readdirSync(dir), [], 'nothing was cached in the truncated path');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('prove: the key and the witness', async () => {
  await refused(() => g16.groth16.prove(`${zkey}\0evil`, wtns), 'zkeyFile');
  await refused(() => g16.groth16.prove(zkey, `${wtns}\0evil`), 'witness');
});

test('openKey, openCircuit, close', async () => {
  await refused(() => g16.openKey(`${zkey}\0evil`), 'zkeyFile');
  await refused(() => g16.openCircuit(`${wasm}\0evil`), 'wasmFile');
  await refused(() => g16.close(`${zkey}\0evil`), 'file');
});

test('the addon itself refuses a string with a NUL byte', async () => {
  await refused(() => native.openKey(`${zkey}\0evil`, 0));
  const vk = JSON.stringify(bn.json('verification_key.json'));
  const pub = JSON.stringify(bn.json('public.json'));
  const proof = JSON.stringify(bn.json('proof.json'));
  assert.equal(await native.verify(vk, pub, proof), true);
  await refused(() => native.verify(`${vk}\0evil`, pub, proof));
  await refused(() => g16.groth16.verify(`${vk}\0evil`, JSON.parse(pub), JSON.parse(proof)));
});

test('the same calls without the NUL byte still prove', async () => {
  const r = await g16.groth16.fullProve(input, wasm, zkey);
  assert.deepEqual(r.publicSignals, bn.json('public.json'));
  await g16.close();
});
