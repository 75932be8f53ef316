// Runs the verifier contracts of `g16 export solidityverifier` in an EVM.
//
//   node solidity_evm.mjs TOOLS_DIR NAME=DIR...
//
// Each DIR holds Verifier.sol and the `g16 export soliditycalldata` texts
// g16.calldata (a proof made by g16) and ref.calldata (the fixture's
// snarkjs proof).  All contracts are compiled in one solc run (warnings
// count as failures), deployed in @ethereumjs/evm (Prague rules, the
// BN254 precompiles of EIP-196/197 with EIP-1108 prices) and called:
// both proofs must give true, every tampered one false without reverting.
// Prints one "gas" line per contract.  Exits 1 on the first failure.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [tools, ...cases] = process.argv.slice(2);
if (!tools || !cases.length) {
    console.error('usage: node solidity_evm.mjs TOOLS_DIR NAME=DIR...');
    process.exit(2);
}
const requireTool = createRequire(path.join(path.resolve(tools), 'package.json'));
const load = async (name) => import(pathToFileURL(requireTool.resolve(name)).href);
const solc = requireTool('solc');
const { createEVM } = await load('@ethereumjs/evm');
const { Common, Hardfork, Mainnet } = await load('@ethereumjs/common');
const { Account, createAddressFromString, hexToBytes, bytesToHex } = await load('@ethereumjs/util');

const Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const MAX_CODE = 24576; // EIP-170

function fail(msg) {
    console.error(`FAIL: ${msg}`);
    process.exit(1);
}

function compile(named) {
    const sources = {};
    for (const [name, dir] of named)
        sources[`${name}.sol`] = { content: fs.readFileSync(path.join(dir, 'Verifier.sol'), 'utf8') };
    const input = {
        language: 'Solidity',
        sources,
        settings: {
            optimizer: { enabled: true, runs: 200 },
            evmVersion: 'cancun',
            outputSelection: {
                '*': { '*': ['evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] },
            },
        },
    };
    const out = JSON.parse(solc.compile(JSON.stringify(input)));
    for (const e of out.errors || []) fail(`solc ${solc.version()}: ${e.formattedMessage}`);
    return out.contracts;
}

// The calldata text is verifyProof's arguments as JSON array elements.
function readCalldata(file) {
    const [a, b, c, pub] = JSON.parse(`[${fs.readFileSync(file, 'utf8')}]`);
    const big = (x) => BigInt(x);
    return { a: a.map(big), b: b.map((r) => r.map(big)), c: c.map(big), pub: pub.map(big) };
}

function encode(selector, p) {
    const words = [...p.a, ...p.b.flat(), ...p.c, ...p.pub];
    for (const w of words) if (w < 0n || w >= 1n << 256n) fail(`word out of range: ${w}`);
    return hexToBytes('0x' + selector + words.map((w) => w.toString(16).padStart(64, '0')).join(''));
}

// Transaction gas: 21000 plus 16 per non-zero and 4 per zero calldata byte.
function intrinsicGas(data) {
    return data.reduce((g, byte) => g + (byte ? 16n : 4n), 21000n);
}

async function deploy(evm, caller, bytecode) {
    const res = await evm.runCall({ caller, data: hexToBytes('0x' + bytecode), gasLimit: 30_000_000n });
    if (res.execResult.exceptionError || !res.createdAddress)
        fail(`deployment failed: ${res.execResult.exceptionError?.error}`);
    return res.createdAddress;
}

// runCall keeps the EIP-2929 warm set between calls; a transaction starts
// with only its sender, its recipient and the precompiles warm.  Reset it
// so that every call pays what it would as a transaction of its own.
async function newTransaction(evm, caller, to) {
    await evm.journal.cleanup();
    for (const a of [caller.toString(), to.toString(), '0x06', '0x07', '0x08'])
        evm.journal.addAlwaysWarmAddress(a.replace(/^0x/, '').padStart(40, '0'));
}

// Calls verifyProof; returns { ok, gas } and fails the test on a revert.
async function call(evm, caller, to, selector, p, what) {
    const data = encode(selector, p);
    await newTransaction(evm, caller, to);
    const res = await evm.runCall({ caller, to, data, gasLimit: 10_000_000n });
    const ret = res.execResult.returnValue;
    if (res.execResult.exceptionError)
        fail(`${what}: verifyProof reverted (${res.execResult.exceptionError.error}), expected a bool`);
    if (ret.length !== 32 || ret.slice(0, 31).some((x) => x) || ret[31] > 1)
        fail(`${what}: verifyProof returned ${bytesToHex(ret)}, not a bool`);
    return { ok: ret[31] === 1, gas: res.execResult.executionGasUsed, tx: intrinsicGas(data) };
}

const clone = (p) => structuredClone(p);
const tampers = [
    ['A is another curve point (the generator)', (p) => { p.a = [1n, 2n]; }],
    ['A is off the curve', (p) => { p.a[0] += 1n; }],
    ['A.y is not below Q', (p) => { p.a[1] += Q; }],
    ['C is another curve point', (p) => { p.c = [1n, 2n]; }],
    ['C.x is not below Q', (p) => { p.c[0] += Q; }],
    ['B with each coordinate\'s halves swapped', (p) => { p.b = p.b.map(([x1, x0]) => [x0, x1]); }],
    ['B is off its curve', (p) => { p.b[0][0] ^= 1n; }],
    ['B.x1 is not below Q', (p) => { p.b[0][0] += Q; }],
    ['public signal 0 changed', (p) => { p.pub[0] = (p.pub[0] + 1n) % R; }],
    ['public signal 0 plus R (same value mod R)', (p) => { p.pub[0] += R; }],
    ['last public signal changed', (p) => { p.pub[p.pub.length - 1] = (p.pub[p.pub.length - 1] + 1n) % R; }],
    ['last public signal is R', (p) => { p.pub[p.pub.length - 1] = R; }],
];

const named = cases.map((c) => {
    const i = c.indexOf('=');
    if (i < 1) fail(`bad argument ${c} (expected NAME=DIR)`);
    return [c.slice(0, i), c.slice(i + 1)];
});
const contracts = compile(named);
const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) });
const caller = createAddressFromString('0x00000000000000000000000000000000000000ee');
await evm.stateManager.putAccount(caller, new Account(0n, 10n ** 20n));
console.log(`solc ${solc.version()}, @ethereumjs/evm (Prague)`);

for (const [name, dir] of named) {
    const c = contracts[`${name}.sol`]?.Groth16Verifier;
    if (!c) fail(`${name}: solc gave no contract Groth16Verifier`);
    const size = c.evm.deployedBytecode.object.length / 2;
    if (size > MAX_CODE) fail(`${name}: runtime code is ${size} bytes, over the EVM's ${MAX_CODE}`);
    const proof = readCalldata(path.join(dir, 'g16.calldata'));
    const sig = `verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[${proof.pub.length}])`;
    const selector = c.evm.methodIdentifiers[sig];
    if (!selector) fail(`${name}: the contract has no ${sig}`);
    const to = await deploy(evm, caller, c.evm.bytecode.object);

    const good = await call(evm, caller, to, selector, proof, `${name} g16 proof`);
    if (!good.ok) fail(`${name}: the g16 proof was rejected`);
    const ref = await call(evm, caller, to, selector, readCalldata(path.join(dir, 'ref.calldata')), `${name} reference`);
    if (!ref.ok) fail(`${name}: the fixture's snarkjs proof was rejected`);
    for (const [what, change] of tampers) {
        const p = clone(proof);
        change(p);
        if ((await call(evm, caller, to, selector, p, `${name}: ${what}`)).ok)
            fail(`${name}: accepted a tampered proof (${what})`);
    }
    console.log(`gas ${name}: nPublic ${proof.pub.length}, verifyProof execution ${good.gas}, ` +
        `transaction ${good.gas + good.tx}, code ${size} bytes; ${tampers.length} tampered proofs rejected`);
}
