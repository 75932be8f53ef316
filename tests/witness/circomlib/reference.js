// reference.js SNARKJS_DIR (CIRCUIT.wasm DIR N)...: for each DIR/i.json
// (i < N), the witness as `snarkjs wtns calculate CIRCUIT.wasm DIR/i.json
// DIR/i.ref.wtns` computes it (its CLI's calls, in one process: one node
// start for every circuit), or DIR/i.ref.err with snarkjs's error.
// Prints each calculation's milliseconds, "DIR i MS" a line.
'use strict';
const fs = require('fs');
const path = require('path');
const [snarkjsDir, ...rest] = process.argv.slice(2);
const snarkjs = require(path.resolve(snarkjsDir));

(async () => {
  for (let k = 0; k + 2 < rest.length; k += 3) {
    const [wasm, dir, count] = rest.slice(k, k + 3);
    for (let i = 0; i < Number(count); i++) {
      const input = JSON.parse(await fs.promises.readFile(path.join(dir, `${i}.json`), 'utf8'));
      const t0 = process.hrtime.bigint();
      try {
        await snarkjs.wtns.calculate(input, wasm, path.join(dir, `${i}.ref.wtns`), {});
      } catch (e) {
        fs.writeFileSync(path.join(dir, `${i}.ref.err`), `${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
      }
      console.log(`${dir} ${i} ${Number(process.hrtime.bigint() - t0) / 1e6}`);
    }
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
