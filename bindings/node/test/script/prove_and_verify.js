// A script as a snarkjs user writes it.  script.test.js runs it as it is
// and with the require line below changed to "g16", nothing else.
const snarkjs = require("snarkjs");
const fs = require("fs");

async function run(inputFile, wasmFile, zkeyFile, vkFile, wtnsFile) {
  const input = JSON.parse(fs.readFileSync(inputFile, "utf8"));
  const { proof, publicSignals } = await snarkjs.groth16.fullProve(input, wasmFile, zkeyFile);
  const vKey = JSON.parse(fs.readFileSync(vkFile, "utf8"));
  const verified = await snarkjs.groth16.verify(vKey, publicSignals, proof);
  const fromWitness = await snarkjs.groth16.prove(zkeyFile, wtnsFile);
  const verified2 = await snarkjs.groth16.verify(vKey, fromWitness.publicSignals, fromWitness.proof);
  console.log(JSON.stringify({ verified, verified2, proof, publicSignals }));
}

run(...process.argv.slice(2)).then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
