// A verification key whose alpha, beta, gamma or delta is the point at
// infinity would accept forged proofs: verify rejects it as malformed
// ("format", naming the field) where it used to answer true or false.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const g16 = require('..');
const { fixture } = require('./common');

const G1_INFINITY = ['0', '1', '0'];
const G2_INFINITY = [['0', '0'], ['1', '0'], ['0', '0']];

for (const [curve, name] of [['bn128', 'multiplier'], ['bls12381', 'multiplier']]) {
  test(`${curve}: verify refuses a key with a point at infinity`, async () => {
    const f = fixture(curve, name);
    const vk = f.json('verification_key.json');
    const pub = f.json('public.json');
    const proof = f.json('proof.json');
    assert.equal(await g16.groth16.verify(vk, pub, proof), true);
    for (const field of ['vk_alpha_1', 'vk_beta_2', 'vk_gamma_2', 'vk_delta_2']) {
      const bad = { ...vk, [field]: field.endsWith('_1') ? G1_INFINITY : G2_INFINITY };
      await assert.rejects(g16.groth16.verify(bad, pub, proof), (e) => {
        assert.equal(e.code, 'format', e.message);
        assert.match(e.message, new RegExp(`${field} is the point at infinity`));
        return true;
      });
    }
  });
}
