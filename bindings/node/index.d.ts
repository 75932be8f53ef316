// Types of the g16 package: snarkjs's Groth16 calls on the g16 prover.

/** A signal value as snarkjs takes it: a number, a bigint, or a decimal or 0x-hex string. */
export type SignalValue = number | bigint | string;
export type SignalInput = SignalValue | SignalInput[];
export type CircuitInput = { [signal: string]: SignalInput };

export type Curve = 'bn128' | 'bls12381';

/** A Groth16 proof exactly as snarkjs returns it (affine points with z = "1"). */
export interface Groth16Proof {
  pi_a: [string, string, string];
  pi_b: [[string, string], [string, string], [string, string]];
  pi_c: [string, string, string];
  protocol: 'groth16';
  curve: Curve;
}

export type PublicSignals = string[];

export interface ProofResult {
  proof: Groth16Proof;
  publicSignals: PublicSignals;
}

/** verification_key.json as `snarkjs zkey export verificationkey` writes it. */
export interface VerificationKey {
  protocol: 'groth16';
  curve: Curve;
  nPublic: number;
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  vk_alphabeta_12: string[][][];
  IC: string[][];
}

export interface ProveOptions {
  /** Where the proof runs, as `g16 prove --device`: 'auto' (default: the GPU when present) */
  device?: 'cpu' | 'gpu' | 'auto' | undefined;
  /** CPU threads of one proof (default: all online CPUs). */
  threads?: number | undefined;
  /** Where compiled circuits are kept (default $XDG_CACHE_HOME/g16, else ~/.cache/g16). */
  cacheDir?: string | undefined;
  /** Receives each line the circuit prints with log() (default: console.log). */
  log?: ((line: string) => void) | undefined;
  /** Seconds a witness calculation, and the circuit's start code as it is opened, may run
   * (default 600; 0: no limit for calculations). */
  witnessTimeout?: number | undefined;
}

/** A snarkjs logger, accepted (and not used) where snarkjs takes one. */
export interface Logger {
  debug?: (...args: unknown[]) => void;
  info?: (...args: unknown[]) => void;
  warn?: (...args: unknown[]) => void;
  error?: (...args: unknown[]) => void;
}

/** Status names of the library (g16_status_name). */
export type G16ErrorCode =
  | 'argument' | 'io' | 'not found' | 'format' | 'mismatch' | 'unsupported'
  | 'too large' | 'out of memory' | 'device' | 'internal' | 'timeout';

/** What every failure rejects with: the library's one-line message and its status name. */
export interface G16Error extends Error {
  code: G16ErrorCode;
}

declare class Handle {
  /** Made by openKey / openCircuit only. */
  protected constructor();
  /** The absolute path it was opened from. */
  readonly file: string;
  /** Frees it once the proofs in flight with it are done. */
  close(): void;
}

/** A proving key (.zkey), opened once (mapped, points checked). */
export declare class Key extends Handle {
  readonly curve: Curve;
  readonly nVars: number;
  readonly nPublic: number;
  readonly domainSize: number;
  exportVerificationKey(): Promise<VerificationKey>;
}

/** A circuit's witness calculator (.wasm), compiled natively on first use. */
export declare class Circuit extends Handle {}

export type WitnessArg = string | Uint8Array | ArrayBuffer | { type?: string; data: Uint8Array };

export declare const groth16: {
  fullProve(
    input: CircuitInput,
    wasmFile: string | Circuit,
    zkeyFile: string | Key,
    options?: ProveOptions | Logger,
  ): Promise<ProofResult>;
  prove(zkeyFile: string | Key, witness: WitnessArg, options?: ProveOptions | Logger): Promise<ProofResult>;
  verify(
    vk: VerificationKey | object | string,
    /** Decimal strings as fullProve gives them; bigints and numbers as snarkjs takes them. */
    publicSignals: ReadonlyArray<string | bigint | number> | string,
    proof: Groth16Proof | object | string,
  ): Promise<boolean>;
};

/** Opens (or finds in the cache) a proving key. */
export declare function openKey(zkeyFile: string | Key, options?: ProveOptions): Promise<Key>;
/** Opens (or finds in the cache) a circuit, compiling it on first use. */
export declare function openCircuit(wasmFile: string | Circuit, options?: ProveOptions): Promise<Circuit>;
/** Closes the cached key or circuit of a path, or all of them. */
export declare function close(file?: string): Promise<void>;
/** Whether this build has the CUDA backend and a usable GPU. */
export declare function gpuAvailable(): boolean;

// Only what index.js exports is exported (Handle is not).
export {};
