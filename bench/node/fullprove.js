// One prover's fullProve from Node.js, as an application calls it:
//   node fullprove.js g16|snarkjs INPUT.json CIRCUIT.wasm KEY.zkey REPEATS OUTDIR
// Proves REPEATS times in this process (g16: the key and circuit opened by
// the first call, cached after it), prints {"times": [seconds...]} and
// leaves the last proof in OUTDIR/proof.json and OUTDIR/public.json for
// run.sh to check with snarkjs.  Peak RSS is the whole process's (GNU time).
'use strict';
const fs = require('fs');
const path = require('path');

const repo = path.resolve(__dirname, '..', '..');
const [prover, inputFile, wasm, zkey, repeats, outDir] = process.argv.slice(2);
const lib = prover === 'g16' ? require(path.join(repo, 'bindings', 'node'))
  : require(path.join(repo, 'tools', 'node_modules', 'snarkjs'));

async function main() {
  const input = JSON.parse(fs.readFileSync(inputFile, 'utf8'));
  const times = [];
  let r;
  for (let i = 0; i < Number(repeats); i++) {
    const t0 = process.hrtime.bigint();
    r = await lib.groth16.fullProve(input, wasm, zkey);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  fs.writeFileSync(path.join(outDir, 'proof.json'), JSON.stringify(r.proof));
  fs.writeFileSync(path.join(outDir, 'public.json'), JSON.stringify(r.publicSignals));
  console.log(JSON.stringify({ times }));
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
