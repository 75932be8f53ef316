// index.d.ts type-checked as the README uses the package: tests/node/types.sh
// compiles this in strict mode against the package's "types".  Each line
// marked ts-expect-error below is a wrong use that must not compile.
import g16 = require('g16');
import type { CircuitInput, G16Error, G16ErrorCode, Groth16Proof, Key, ProofResult, VerificationKey } from 'g16';
// @ts-expect-error the handles' base class is not exported (index.js has none)
import type { Handle } from 'g16';

declare const input: CircuitInput;
declare const wtns: Uint8Array;

async function readme(vKey: VerificationKey): Promise<boolean> {
  const { proof, publicSignals } = await g16.groth16.fullProve(input, 'circuit.wasm', 'circuit.zkey');
  const first: string = proof.pi_a[0];
  const curve: 'bn128' | 'bls12381' = proof.curve;
  const signals: string[] = publicSignals;
  void [first, curve, signals];
  const asSnarkjsTakesThem = await g16.groth16.verify(vKey, publicSignals.map(BigInt), proof);
  return asSnarkjsTakesThem && (await g16.groth16.verify(vKey, publicSignals, proof));
}

async function handles(): Promise<void> {
  const key: Key = await g16.openKey('circuit.zkey', { threads: 2 });
  const circuit = await g16.openCircuit('circuit.wasm', { cacheDir: '/tmp/g16', witnessTimeout: 5 });
  const sizes: number[] = [key.nVars, key.nPublic, key.domainSize];
  const file: string = key.file;
  void [sizes, file];
  const vk: VerificationKey = await key.exportVerificationKey();
  const n: number = vk.nPublic;
  void n;
  const r: ProofResult = await g16.groth16.fullProve({ a: 3n, b: [1, '0x2', [3]] }, circuit, key, {
    device: 'cpu',
    log: (line: string) => void line,
  });
  const p: Groth16Proof = r.proof;
  void p;
  await g16.groth16.prove(key, wtns, { device: g16.gpuAvailable() ? 'gpu' : 'auto' });
  await g16.groth16.prove('circuit.zkey', 'witness.wtns', { device: undefined, threads: undefined });
  await g16.groth16.prove('circuit.zkey', { type: 'mem', data: wtns });
  await g16.groth16.prove('circuit.zkey', wtns.buffer as ArrayBuffer, { info: () => {} });
  key.close();
  circuit.close();
  await g16.close('circuit.zkey');
  await g16.close();
  const isKey: boolean = key instanceof g16.Key || circuit instanceof g16.Circuit;
  void isKey;
}

async function errors(): Promise<G16ErrorCode | undefined> {
  try {
    await g16.groth16.prove('/nonexistent.zkey', 'witness.wtns');
  } catch (e) {
    const err = e as G16Error;
    const message: string = err.message;
    void message;
    if (err.code === 'not found' || err.code === 'mismatch' || err.code === 'timeout') return err.code;
  }
  return undefined;
}

async function wrongUses(key: Key, vKey: VerificationKey): Promise<void> {
  // @ts-expect-error the device is 'cpu', 'gpu' or 'auto'
  await g16.groth16.prove(key, wtns, { device: 'tpu' });
  // @ts-expect-error threads is a number
  await g16.groth16.prove(key, wtns, { threads: '4' });
  // @ts-expect-error fullProve takes the input first
  await g16.groth16.fullProve('circuit.wasm', 'circuit.zkey', input);
  // @ts-expect-error a witness is a path or bytes, not a number
  await g16.groth16.prove(key, 42);
  // @ts-expect-error verify resolves to a boolean, not a proof
  const notAProof: ProofResult = await g16.groth16.verify(vKey, [], {});
  // @ts-expect-error public signals are strings, bigints or numbers
  await g16.groth16.verify(vKey, [true], {});
  // @ts-expect-error a key's sizes are read-only
  key.nPublic = 3;
  // @ts-expect-error keys come from openKey, not a constructor
  new g16.Key();
  // @ts-expect-error gpuAvailable answers at once, not through a promise
  const later: Promise<boolean> = g16.gpuAvailable();
  // @ts-expect-error no such status name
  const code: G16ErrorCode = 'no such code';
  // @ts-expect-error proof fields are decimal strings
  const x: bigint = (await g16.groth16.prove(key, wtns)).proof.pi_a[0];
  // @ts-expect-error the library's code is a string, not a number
  const numeric: number = ({} as G16Error).code;
  void [notAProof, later, code, x, numeric];
}

void [readme, handles, errors, wrongUses];
