// Bad calls reject with an Error carrying the library's message and code;
// none of them takes the process down, which then still proves.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const g16 = require('..');
const { fixture, g16Cli } = require('./common');

const bn = fixture('bn128', 'multiplier');
const bls = fixture('bls12381', 'multiplier');

// Rejects with an Error of that code whose message matches re.
async function rejects(promise, code, re) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof Error, 'an Error');
    assert.equal(e.code, code, e.message);
    assert.match(e.message, re);
    return true;
  });
}

test('missing files', async () => {
  await rejects(g16.groth16.prove('/nonexistent/k.zkey', bn.file('witness.wtns')), 'not found', /\/nonexistent\/k\.zkey/);
  await rejects(g16.groth16.prove(bn.file('circuit.zkey'), '/nonexistent/w.wtns'), 'not found', /\/nonexistent\/w\.wtns/);
  await rejects(g16.groth16.fullProve(bn.json('input.json'), '/nonexistent/c.wasm', bn.file('circuit.zkey')),
    'not found', /\/nonexistent\/c\.wasm/);
});

test('files of the wrong kind', async () => {
  await rejects(g16.groth16.prove(bn.file('witness.wtns'), bn.file('witness.wtns')), 'format', /witness\.wtns/);
  await rejects(g16.groth16.prove(bn.file('circuit.zkey'), bn.file('circuit.zkey')), 'format', /circuit\.zkey/);
  await rejects(g16.groth16.prove(bn.file('circuit.zkey'), Buffer.from('not a witness')), 'format', /witness/);
  await rejects(g16.groth16.prove(bn.file('circuit.zkey'), os.tmpdir()), 'io', /directory/);
});

test('a witness or circuit of the other curve', async () => {
  await rejects(g16.groth16.prove(bn.file('circuit.zkey'), bls.file('witness.wtns')), 'mismatch', /bls12381/);
  await rejects(g16.groth16.prove(bls.file('circuit.zkey'), fs.readFileSync(bn.file('witness.wtns'))),
    'mismatch', /bn128/);
  await rejects(g16.groth16.fullProve(bls.json('input.json'), bls.file('circuit.wasm'), bn.file('circuit.zkey')),
    'mismatch', /bls12381/);
});

test('bad inputs', async () => {
  const wasm = bn.file('circuit.wasm');
  const zkey = bn.file('circuit.zkey');
  await rejects(g16.groth16.fullProve({ a: 3 }, wasm, zkey), 'format', /^input: /);
  await rejects(g16.groth16.fullProve({ a: 3, b: 11, c: 1 }, wasm, zkey), 'format', /c/);
  await rejects(g16.groth16.fullProve({ a: 'three', b: 11 }, wasm, zkey), 'format', /^input: /);
  await rejects(g16.groth16.fullProve('{"a":3}', wasm, zkey), 'argument', /input/);
  await rejects(g16.groth16.prove(zkey, 42), 'argument', /witness/);
});

// merkle's input with a root its path does not reach: the circuit's
// `root === cur[depth]` fails while the witness is calculated.
const merkle = fixture('bn128', 'merkle');
const wrongRoot = { ...merkle.json('input.json'), root: '1' };
const ASSERT_RE = /circuit\.wasm: assert failed: Error in template MerkleInclusion_\d+ line: \d+$/;

test('a circuit assert that fails on the input', async () => {
  await rejects(g16.groth16.fullProve(wrongRoot, merkle.file('circuit.wasm'), merkle.file('circuit.zkey')),
    'format', ASSERT_RE);
});

// What the g16 command prints after its "g16 <command>: " prefix.
function cliMessage(args) {
  const r = spawnSync(g16Cli, args, { encoding: 'utf8' });
  assert.equal(r.status, 1, `${g16Cli} ${args.join(' ')}: ${r.stderr}`);
  const line = r.stderr.trim();
  assert.doesNotMatch(line, /\n/, 'one line');
  return line.slice(line.indexOf(': ') + 2);
}

test('the messages are the library\'s own, word for word as the g16 command gives them', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'g16-node-errors-'));
  try {
    const out = [path.join(tmp, 'proof.json'), path.join(tmp, 'public.json')];
    const input = path.join(tmp, 'input.json');
    fs.writeFileSync(input, JSON.stringify(wrongRoot));
    const cases = [
      [() => g16.groth16.prove('/nonexistent/k.zkey', bn.file('witness.wtns')),
        ['prove', '/nonexistent/k.zkey', bn.file('witness.wtns'), ...out]],
      [() => g16.groth16.prove(bn.file('circuit.zkey'), bls.file('witness.wtns')),
        ['prove', bn.file('circuit.zkey'), bls.file('witness.wtns'), ...out]],
      [() => g16.groth16.fullProve(wrongRoot, merkle.file('circuit.wasm'), merkle.file('circuit.zkey')),
        ['fullprove', input, merkle.file('circuit.wasm'), merkle.file('circuit.zkey'), ...out]],
    ];
    for (const [call, args] of cases) {
      const want = cliMessage(args);
      await assert.rejects(call(), (e) => {
        assert.ok(e instanceof Error);
        assert.equal(e.message, want);
        return true;
      });
    }
    assert.ok(!fs.existsSync(out[0]), 'the command wrote no proof');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('bad options', async () => {
  const args = [bn.file('circuit.zkey'), bn.file('witness.wtns')];
  await rejects(g16.groth16.prove(...args, { device: 'tpu' }), 'argument', /device/);
  await rejects(g16.groth16.prove(...args, { threads: -1 }), 'argument', /threads/);
  await rejects(g16.groth16.prove(...args, { threads: 1.5 }), 'argument', /threads/);
  if (g16.gpuAvailable()) {
    const r = await g16.groth16.prove(...args, { device: 'gpu' });
    assert.deepEqual(r.publicSignals, bn.json('public.json'));
  } else {
    await rejects(g16.groth16.prove(...args, { device: 'gpu' }), 'unsupported', /gpu/);
  }
});

test('verify: malformed inputs reject, invalid proofs are false', async () => {
  const vk = bn.json('verification_key.json');
  const proof = bn.json('proof.json');
  const pub = bn.json('public.json');
  assert.equal(await g16.groth16.verify(vk, pub, proof), true);
  assert.equal(await g16.groth16.verify(vk, ['34'], proof), false);
  await rejects(g16.groth16.verify({}, pub, proof), 'format', /verification key/);
  await rejects(g16.groth16.verify(vk, [], proof), 'format', /public signals/);
  await rejects(g16.groth16.verify(vk, pub, { ...proof, pi_a: ['x', '1', '1'] }), 'format', /proof/);
  await rejects(g16.groth16.verify(vk, pub, null), 'argument', /proof/);
});

test('the process still proves after the failures', async () => {
  const r = await g16.groth16.prove(bn.file('circuit.zkey'), bn.file('witness.wtns'));
  assert.equal(await g16.groth16.verify(bn.json('verification_key.json'), r.publicSignals, r.proof), true);
});
