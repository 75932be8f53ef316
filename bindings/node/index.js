// g16 for Node.js: snarkjs's Groth16 calls on the g16 prover.
//
//   const { groth16 } = require('g16');      // was: require('snarkjs')
//   const { proof, publicSignals } = await groth16.fullProve(input, wasm, zkey);
//   const ok = await groth16.verify(vk, publicSignals, proof);
//
// Contract
// - fullProve / prove resolve to { proof, publicSignals } exactly as snarkjs
//   returns them (proof: pi_a, pi_b, pi_c, protocol, curve; decimal
//   strings), verify to a boolean (false for an invalid proof; an input
//   that is not a proof at all rejects).
// - Keys (.zkey) and circuits (.wasm) given by path are opened once and
//   cached by their absolute path: a file replaced on disk (another inode,
//   size or mtime) is opened afresh.  openKey / openCircuit give the
//   objects themselves, usable wherever a path is; close() empties the cache.
// - The work runs on libuv's thread pool (at most UV_THREADPOOL_SIZE calls at
//   once, 4 by default); each proof uses `threads` CPU threads (default: all).
// - Failures reject with an Error whose message is the library's one line
//   ("<file>: <problem>") and whose code is the library's status name
//   ("argument", "io", "not found", "format", "mismatch", "unsupported",
//   "too large", "out of memory", "device", "internal", "timeout": a witness
//   calculation, or the circuit's start code as it is opened, past
//   options.witnessTimeout).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const native = require('./build/Release/g16.node');

const DEVICES = { auto: 0, cpu: 1, gpu: 2 }; // enum g16_device
const WITNESS_TIMEOUT = 600; // G16_WITNESS_TIME_LIMIT

function argError(message) {
  const e = new TypeError(message);
  e.code = 'argument';
  return e;
}

// A path for the library: a NUL byte would end it there in C, so
// "/x/a\0evil" would open /x/a.  Refused as Node's fs refuses it.
function pathArg(name, file) {
  if (typeof file !== 'string' || file === '') throw argError(`${name}: expected a file path`);
  if (file.includes('\0')) {
    throw argError(`The argument '${name}' must be a path without null bytes. Received ${JSON.stringify(file)}`);
  }
  return file;
}

// Options as the g16 command takes them: device ('cpu' | 'gpu' | 'auto'),
// threads (CPU threads, default all), cacheDir (compiled circuits),
// witnessTimeout (seconds, as --witness-timeout: the library's default,
// G16_WITNESS_TIME_LIMIT; 0: no limit).
function parseOptions(opts) {
  const o = opts == null ? {} : opts;
  if (typeof o !== 'object') throw argError('options: expected an object');
  const device = o.device === undefined ? 'auto' : o.device;
  if (!Object.prototype.hasOwnProperty.call(DEVICES, device)) {
    throw argError(`options.device must be 'cpu', 'gpu' or 'auto', not ${JSON.stringify(device)}`);
  }
  const threads = o.threads === undefined ? 0 : o.threads;
  if (!Number.isInteger(threads) || threads < 0 || threads > 4096) {
    throw argError(`options.threads must be an integer from 1 to 4096, not ${JSON.stringify(threads)}`);
  }
  if (o.cacheDir !== undefined && typeof o.cacheDir !== 'string') {
    throw argError('options.cacheDir must be a path');
  }
  if (o.cacheDir) pathArg('options.cacheDir', o.cacheDir);
  if (o.log !== undefined && typeof o.log !== 'function') throw argError('options.log must be a function');
  const witnessTimeout = o.witnessTimeout === undefined ? WITNESS_TIMEOUT : o.witnessTimeout;
  if (typeof witnessTimeout !== 'number' || !(witnessTimeout >= 0 && witnessTimeout <= 1e9)) {
    throw argError(`options.witnessTimeout must be a number of seconds from 0 to 1e9, not ${JSON.stringify(witnessTimeout)}`);
  }
  return { device: DEVICES[device], threads, cacheDir: o.cacheDir || defaultCacheDir(), log: o.log, witnessTimeout };
}

// Where `g16 wtns calculate` keeps compiled circuits, so both share them.
function defaultCacheDir() {
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg ? path.join(xdg, 'g16') : path.join(os.homedir(), '.cache', 'g16');
}

// snarkjs's fourth argument is a logger ({ debug, info, ... }); a call
// written for snarkjs passes one where g16 takes options.
function optionsOrLogger(arg) {
  const isLogger = arg && typeof arg === 'object' &&
    ['debug', 'info', 'warn', 'error'].some((k) => typeof arg[k] === 'function');
  return isLogger ? {} : arg;
}

class Handle {
  constructor(handle, file) {
    this._handle = handle;
    this.file = file;
  }

  get handle() {
    if (!this._handle) throw Object.assign(new Error(`${this.file}: closed`), { code: 'argument' });
    return this._handle;
  }

  // Frees it once the proofs in flight with it are done; it cannot be
  // used afterwards (a later call by path opens the file again).
  close() {
    if (!this._handle) return;
    forget(this);
    native.close(this._handle);
    this._handle = null;
  }
}

class Key extends Handle {
  constructor(handle, file) {
    super(handle, file);
    Object.assign(this, native.keyInfo(handle)); // curve, nVars, nPublic, domainSize
  }

  // The verification key, as `snarkjs zkey export verificationkey` gives it.
  async exportVerificationKey() {
    return JSON.parse(await native.keyVk(this.handle));
  }
}

class Circuit extends Handle {}

// Cache: absolute path -> { stamp, promise } (a promise, so concurrent
// first calls open a file once).
const keys = new Map();
const circuits = new Map();

function stampOf(file) {
  try {
    const s = fs.statSync(file);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (e) {
    return null; // the library reports the missing file in its own words
  }
}

function forget(obj) {
  for (const cache of [keys, circuits]) {
    const hit = cache.get(obj.file);
    if (hit && hit.object === obj) cache.delete(obj.file);
  }
}

// name: the argument's, for errors.  variant: what else the object was
// opened with (a circuit's time limit): another one opens the file afresh,
// as a changed file does.
async function cached(cache, name, file, open, variant = '') {
  const abs = path.resolve(pathArg(name, file));
  const found = stampOf(abs);
  const stamp = found === null ? null : `${found}:${variant}`;
  const hit = cache.get(abs);
  if (hit && hit.stamp === stamp && stamp !== null) return hit.promise;
  if (hit) hit.promise.then((o) => o.close(), () => {});
  const entry = { stamp, object: null, promise: null };
  entry.promise = open(abs).then((o) => {
    entry.object = o;
    return o;
  }, (e) => {
    if (cache.get(abs) === entry) cache.delete(abs);
    throw e;
  });
  cache.set(abs, entry);
  return entry.promise;
}

// o: options already parsed.
async function keyOf(zkeyFile, o) {
  if (zkeyFile instanceof Key) return zkeyFile;
  return cached(keys, 'zkeyFile', zkeyFile, async (abs) => new Key(await native.openKey(abs, o.threads), abs));
}

async function circuitOf(wasmFile, o) {
  if (wasmFile instanceof Circuit) return wasmFile;
  // The time limit is the circuit's own, bounding its start code as it is
  // opened, and then its calculations.
  return cached(circuits, 'wasmFile', wasmFile,
    async (abs) => new Circuit(await native.openCircuit(abs, o.cacheDir, o.witnessTimeout), abs),
    String(o.witnessTimeout));
}

async function openKey(zkeyFile, opts) {
  return keyOf(zkeyFile, parseOptions(opts));
}

async function openCircuit(wasmFile, opts) {
  return circuitOf(wasmFile, parseOptions(opts));
}

// Closes the cached key or circuit of a path, or every cached one.
async function close(file) {
  const all = [...keys.entries(), ...circuits.entries()];
  const abs = file === undefined ? null : path.resolve(pathArg('file', file));
  const chosen = all.filter(([p]) => abs === null || p === abs).map(([, e]) => e.promise);
  const opened = await Promise.allSettled(chosen);
  for (const r of opened) if (r.status === 'fulfilled') r.value.close();
}

function proofResult([proofJson, publicJson]) {
  return { proof: JSON.parse(proofJson), publicSignals: JSON.parse(publicJson) };
}

// snarkjs accepts bigints and numbers for signals: both become decimal
// strings, as snarkjs's BigInt() reads them; other values stay as they are.
function asDecimal(v) {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v).toString();
  return v;
}

function inputJson(input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw argError('input: expected an object of signal names to values');
  }
  return JSON.stringify(input, (k, v) => asDecimal(v));
}

function emitLog(text, log) {
  if (!text) return;
  for (const line of text.slice(0, -1).split('\n')) (log || console.log)(line);
}

// A Key or Circuit given as such is used at once (no await before the
// work is queued), so closing it right after the call cannot cut in.
async function fullProve(input, wasmFile, zkeyFile, opts) {
  const o = parseOptions(optionsOrLogger(opts));
  const text = inputJson(input);
  const [circuit, key] = wasmFile instanceof Circuit && zkeyFile instanceof Key ? [wasmFile, zkeyFile]
    : await Promise.all([circuitOf(wasmFile, o), keyOf(zkeyFile, o)]);
  const out = await native.fullProve(key.handle, circuit.handle, text, o.device, o.threads);
  emitLog(out[2], o.log);
  return proofResult(out);
}

// The witness: a .wtns path, its bytes (Buffer, Uint8Array), or snarkjs's
// { type: 'mem', data } object.
function witnessArg(witness) {
  if (typeof witness === 'string') return path.resolve(pathArg('witness', witness));
  if (witness instanceof Uint8Array) return witness;
  if (witness && witness.data instanceof Uint8Array) return witness.data;
  if (witness instanceof ArrayBuffer) return new Uint8Array(witness);
  throw argError('witness: expected a .wtns path or its bytes');
}

async function prove(zkeyFile, witness, opts) {
  const o = parseOptions(optionsOrLogger(opts));
  const w = witnessArg(witness);
  const key = zkeyFile instanceof Key ? zkeyFile : await keyOf(zkeyFile, o);
  return proofResult(await native.prove(key.handle, w, o.device, o.threads));
}

function jsonArg(name, v) {
  if (typeof v === 'string') return v;
  if (v === null || typeof v !== 'object') throw argError(`${name}: expected an object`);
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

// Public signals as snarkjs's verify takes them: decimal strings, bigints
// or numbers.
async function verify(vk, publicSignals, proof) {
  const signals = Array.isArray(publicSignals) ? publicSignals.map(asDecimal) : publicSignals;
  return native.verify(jsonArg('verification key', vk), jsonArg('public signals', signals),
    jsonArg('proof', proof));
}

const groth16 = { fullProve, prove, verify };

module.exports = {
  groth16,
  openKey,
  openCircuit,
  close,
  gpuAvailable: native.gpuAvailable,
  Key,
  Circuit,
};
