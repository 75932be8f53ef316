// A circuit whose start code never ends (a wasm start function, run as
// the circuit is opened): fullProve and openCircuit reject with 'timeout'
// at options.witnessTimeout, and process.exit is not held up by the pool
// thread that ran it.  Each case runs in a child process that the test
// kills after a minute, so a regression fails instead of hanging.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');
const { packageDir, fixture } = require('./common');
const g16 = require('..');

// tests/witness/data/start_forever.wat: every export circom's calculator
// has, and a start function that loops forever.
const WAT = `(module
  (import "runtime" "exceptionHandler" (func (param i32)))
  (import "runtime" "printErrorMessage" (func))
  (import "runtime" "writeBufferMessage" (func))
  (import "runtime" "showSharedRWMemory" (func))
  (memory (export "memory") 1)
  (func $start (loop $l (br $l)))
  (start $start)
  (func (export "getVersion") (result i32) (i32.const 2))
  (func (export "getMinorVersion") (result i32) (i32.const 0))
  (func (export "getPatchVersion") (result i32) (i32.const 0))
  (func (export "getFieldNumLen32") (result i32) (i32.const 8))
  (func (export "getRawPrime"))
  (func (export "readSharedRWMemory") (param i32) (result i32) (i32.const 1))
  (func (export "writeSharedRWMemory") (param i32 i32))
  (func (export "init") (param i32))
  (func (export "getInputSignalSize") (param i32 i32) (result i32) (i32.const 0))
  (func (export "setInputSignal") (param i32 i32 i32))
  (func (export "getInputSize") (result i32) (i32.const 0))
  (func (export "getWitnessSize") (result i32) (i32.const 1))
  (func (export "getWitness") (param i32))
  (func (export "getMessageChar") (result i32) (i32.const 0)))
`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'g16-node-start-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const wasm = path.join(tmp, 'start_forever.wasm');
fs.writeFileSync(path.join(tmp, 'start_forever.wat'), WAT);
execFileSync('wat2wasm', [path.join(tmp, 'start_forever.wat'), '-o', wasm]);
const zkey = fixture('bn128', 'multiplier').file('circuit.zkey');

// script in a child node with the package as g16; its status and output.
function child(script) {
  const r = spawnSync(process.execPath, ['-e', `const g16 = require(${JSON.stringify(packageDir)});\n${script}`],
    { encoding: 'utf8', timeout: 60000, killSignal: 'SIGKILL', env: process.env });
  return { status: r.status, signal: r.signal, out: r.stdout.trim(), err: r.stderr };
}

test('fullProve of a circuit whose start never ends rejects at witnessTimeout', () => {
  const r = child(`
    const t0 = Date.now();
    g16.groth16.fullProve({}, ${JSON.stringify(wasm)}, ${JSON.stringify(zkey)}, { witnessTimeout: 1 }).then(
      () => console.log(JSON.stringify({ resolved: true })),
      (e) => console.log(JSON.stringify({ code: e.code, message: e.message, s: (Date.now() - t0) / 1000 })));`);
  assert.equal(r.signal, null, `the child hung and was killed: ${r.err}`);
  assert.equal(r.status, 0, r.err);
  const got = JSON.parse(r.out.split('\n').pop());
  assert.equal(got.code, 'timeout', r.out);
  assert.equal(got.message, `${wasm}: its start code ran past the time limit of 1 s`);
  assert.ok(got.s >= 1 && got.s < 30, `rejected after ${got.s} s`);
});

test('process.exit during such an open returns once the limit stops it', () => {
  const r = child(`
    g16.openCircuit(${JSON.stringify(wasm)}, { witnessTimeout: 2 }).catch(() => {});
    setTimeout(() => process.exit(3), 200);`);
  assert.equal(r.signal, null, `process.exit hung and the child was killed: ${r.err}`);
  assert.equal(r.status, 3, r.err);
});

test('witnessTimeout is a number of seconds', async () => {
  for (const bad of [-1, 'x', NaN, 2e9]) {
    await assert.rejects(g16.openCircuit(wasm, { witnessTimeout: bad }),
      (e) => e.code === 'argument' && /witnessTimeout/.test(e.message));
  }
});
