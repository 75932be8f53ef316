// forge_entry.js OBJECT TEMPLATE OUT: writes OUT, a cache entry whose
// object is OBJECT's bytes and whose trailer says what TEMPLATE's (a real
// entry) says: the same format and, in the current one, the same wasm and
// recipe digests, with the checksum and length of OBJECT.  What anyone who
// can write a cache directory can make: the trailer is no signature.
'use strict';
const fs = require('fs');
const crypto = require('crypto');
const [objectPath, templatePath, outPath] = process.argv.slice(2);
const object = fs.readFileSync(objectPath);
const template = fs.readFileSync(templatePath);
const sha256 = (...parts) => crypto.createHash('sha256').update(Buffer.concat(parts)).digest();
const length = Buffer.alloc(8);
length.writeBigUInt64LE(BigInt(object.length));
let trailer;
if (template.subarray(-112, -104).toString('latin1') === 'g16wso2\n') {
  // magic, wasm and recipe digests, SHA-256 of everything before, length
  const head = template.subarray(-112, -40);
  trailer = Buffer.concat([head, sha256(object, head), length]);
} else if (template.subarray(-48, -40).toString('latin1') === 'g16wso1\n') {
  // magic, SHA-256 of the object, length
  trailer = Buffer.concat([Buffer.from('g16wso1\n', 'latin1'), sha256(object), length]);
} else {
  console.error(`${templatePath}: no cache entry trailer`);
  process.exit(1);
}
fs.writeFileSync(outPath, Buffer.concat([object, trailer]));
