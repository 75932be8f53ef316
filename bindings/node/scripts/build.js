#!/usr/bin/env node
// Builds build/Release/g16.node (`npm install` runs this): the addon's C
// sources compiled with the system C compiler against
//   - Node-API's headers from the Node.js running this script (its
//     include/node, e.g. /usr/include/node): never downloaded, so the
//     build works offline;
//   - libg16: the repository's own build (../../build, when this package
//     sits in a g16 checkout that was built with `make`), else the
//     installed library found by `pkg-config g16` (PKG_CONFIG_PATH is
//     honoured).  The addon remembers (rpath) where libg16.so was found.
// CC and CFLAGS are honoured as usual.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const pkgDir = path.resolve(__dirname, '..');
const fail = (msg) => {
  console.error(`g16 build: ${msg}`);
  process.exit(1);
};

function nodeHeaders() {
  const dirs = [path.resolve(path.dirname(process.execPath), '..', 'include', 'node'),
    '/usr/include/node', '/usr/local/include/node'];
  const found = dirs.find((d) => fs.existsSync(path.join(d, 'node_api.h')));
  if (!found) {
    fail(`node_api.h not found in ${dirs.join(', ')}: install Node.js's development ` +
      'headers (Debian: libnode-dev)');
  }
  return found;
}

// { cflags: [...], libs: [...], libdir } of the library to link.
function libg16() {
  const repo = path.resolve(pkgDir, '..', '..');
  const built = path.join(repo, 'build', 'src', 'lib');
  if (fs.existsSync(path.join(built, 'libg16.so')) && fs.existsSync(path.join(repo, 'include', 'g16.h'))) {
    return { cflags: [`-I${path.join(repo, 'include')}`], libs: [`-L${built}`, '-lg16'], libdir: built };
  }
  const pc = (...args) => execFileSync('pkg-config', [...args, 'g16'], { encoding: 'utf8' }).trim();
  try {
    const split = (s) => s.split(/\s+/).filter(Boolean);
    return { cflags: split(pc('--cflags')), libs: split(pc('--libs')), libdir: path.resolve(pc('--variable=libdir')) };
  } catch (e) {
    return fail('libg16 not found: build the repository (`make`) or install it (`make install`) ' +
      'so that `pkg-config g16` finds it (set PKG_CONFIG_PATH for a non-standard prefix)');
  }
}

function build() {
  const lib = libg16();
  const out = path.join(pkgDir, 'build', 'Release');
  fs.mkdirSync(out, { recursive: true });
  const srcDir = path.join(pkgDir, 'src');
  const sources = fs.readdirSync(srcDir).filter((f) => f.endsWith('.c')).sort()
    .map((f) => path.join(srcDir, f));
  const cc = process.env.CC || 'cc';
  const userFlags = (process.env.CFLAGS || '').split(/\s+/).filter(Boolean);
  const target = path.join(out, 'g16.node');
  const tmp = `${target}.tmp.${process.pid}`;
  const args = ['-std=gnu11', '-O2', '-fPIC', '-shared', '-fvisibility=hidden', '-Wall', '-Wextra',
    ...userFlags, `-I${nodeHeaders()}`, ...lib.cflags, ...sources, '-o', tmp, ...lib.libs,
    `-Wl,-rpath,${lib.libdir}`];
  try {
    execFileSync(cc, args, { stdio: 'inherit' });
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    fail(`${cc} failed (${e.status === null ? e.signal : `exit ${e.status}`})`);
  }
  fs.renameSync(tmp, target); // whole or not at all
  console.log(`g16 build: ${path.relative(process.cwd(), target) || target} (libg16 in ${lib.libdir})`);
}

build();
