// What the tests share: where the fixtures and snarkjs are, and helpers.
// In the repository the defaults find them (../shared/fixtures beside the
// repository, tools/node_modules/snarkjs); ctest, which runs a copy of the
// package, says where through G16_FIXTURES and G16_SNARKJS_MODULE (and
// keeps compiled circuits in its build tree through XDG_CACHE_HOME).
'use strict';
const fs = require('fs');
const path = require('path');

const repo = path.resolve(__dirname, '..', '..', '..');
const fixturesDir = process.env.G16_FIXTURES || path.resolve(repo, '..', 'shared', 'fixtures');
const snarkjsDir = process.env.G16_SNARKJS_MODULE || path.join(repo, 'tools', 'node_modules', 'snarkjs');
const packageDir = path.resolve(__dirname, '..');
// The g16 command of the same library (ctest: the installed one).
const g16Cli = process.env.G16_CLI || path.join(repo, 'build', 'bin', 'g16');

const FILES = ['circuit.wasm', 'circuit.zkey', 'witness.wtns', 'input.json', 'verification_key.json',
  'proof.json', 'public.json'];

// Every fixture with the files these tests use, as { curve, name, dir, file(f), json(f) }.
function fixtures() {
  const out = [];
  const dirs = (d) => fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory())
    .map((e) => e.name).sort();
  for (const curve of dirs(fixturesDir)) {
    for (const name of dirs(path.join(fixturesDir, curve))) {
      const dir = path.join(fixturesDir, curve, name);
      if (!FILES.every((f) => fs.existsSync(path.join(dir, f)))) continue;
      out.push({
        curve, name, dir,
        file: (f) => path.join(dir, f),
        json: (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')),
      });
    }
  }
  return out;
}

function fixture(curve, name) {
  const f = fixtures().find((x) => x.curve === curve && x.name === name);
  if (!f) throw new Error(`fixture ${curve}/${name} not found under ${fixturesDir}`);
  return f;
}

// snarkjs keeps worker threads for its curves: they end with the tests.
async function endSnarkjs() {
  for (const c of ['curve_bn128', 'curve_bls12381']) {
    if (globalThis[c]) await globalThis[c].terminate();
    delete globalThis[c];
  }
}

// The same proof with one coordinate changed: still well-formed, not valid.
function tampered(proof) {
  const t = JSON.parse(JSON.stringify(proof));
  t.pi_c = proof.pi_a.slice();
  return t;
}

module.exports = { fixturesDir, snarkjsDir, packageDir, g16Cli, fixtures, fixture, endSnarkjs, tampered };
