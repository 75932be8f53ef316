// What `snarkjs zkey export soliditycalldata PUBLIC PROOF` prints, for many
// proofs in one Node.js process (the command starts one process a proof):
// the same function of the same snarkjs, and console.log's newline.
//   node solidity_calldata.mjs TOOLS_DIR PUBLIC PROOF OUT [PUBLIC PROOF OUT]...
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [tools, ...files] = process.argv.slice(2);
if (!tools || !files.length || files.length % 3) {
    console.error('usage: node solidity_calldata.mjs TOOLS_DIR PUBLIC PROOF OUT...');
    process.exit(2);
}
const requireTool = createRequire(path.join(path.resolve(tools), 'package.json'));
const snarkjs = await import(pathToFileURL(requireTool.resolve('snarkjs')).href);
const read = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
for (let i = 0; i < files.length; i += 3) {
    const text = await snarkjs.groth16.exportSolidityCallData(read(files[i + 1]), read(files[i]));
    fs.writeFileSync(files[i + 2], text + '\n');
}
process.exit(0);
