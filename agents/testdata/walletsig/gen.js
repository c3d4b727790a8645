// Generates walletsig.json: Ed25519 wallet signatures made with tweetnacl
// and encoded with bs58, an implementation independent of the Go code that
// verifies them (agents/wallet_signature_test.go).
//
//   npm install && node gen.js > walletsig.json
//
// Keys come from fixed seeds, and Ed25519 signing is deterministic, so the
// output is reproducible byte for byte.
'use strict';
const nacl = require('tweetnacl');
const bs58 = require('bs58').default;
const crypto = require('crypto');

const seed = (label) => new Uint8Array(crypto.createHash('sha256').update(label).digest());
const utf8 = (s) => new TextEncoder().encode(s);
const b64 = (b) => Buffer.from(b).toString('base64');
const b64raw = (b) => b64(b).replace(/=+$/, '');

const keys = ['walletsig fixture key A', 'walletsig fixture key B'].map((label) => {
  const kp = nacl.sign.keyPair.fromSeed(seed(label));
  return { label, kp, address: bs58.encode(kp.publicKey) };
});
const [A, B] = keys;

const service = 'aft';
const ts = 1767225600; // 2026-01-01T00:00:00Z
const agentID = 'agt_k3v9x2m8q1w7p4z6';
const messages = {
  auth: `${service}-auth:${A.address}:${ts}`,
  link: `${service}-link:${agentID}:${A.address}:${ts}`,
  published_link: `Link wallet to agent ${agentID}`,
  unicode: 'Signé par le portefeuille ✓ — 署名',
};

const sign = (kp, msg) => nacl.sign.detached(utf8(msg), kp.secretKey);
const cases = [];
const add = (name, wallet, message, sig, encoding, verifies) => {
  const text = encoding === 'base58' ? bs58.encode(sig) : encoding === 'base64' ? b64(sig) : b64raw(sig);
  cases.push({ name, wallet_address: wallet, message, signature: text, encoding, verifies });
};

for (const [name, msg] of Object.entries(messages)) {
  const sig = sign(A.kp, msg);
  add(`${name} base58`, A.address, msg, sig, 'base58', true);
  add(`${name} base64`, A.address, msg, sig, 'base64', true);
  add(`${name} base64 unpadded`, A.address, msg, sig, 'base64raw', true);
}

const good = sign(A.kp, messages.auth);
const flipped = Uint8Array.from(good);
flipped[10] ^= 0x01;
add('flipped signature byte', A.address, messages.auth, flipped, 'base58', false);
add('signed by another wallet', A.address, messages.auth, sign(B.kp, messages.auth), 'base58', false);
add('signature over another message', A.address, messages.auth, sign(A.kp, messages.link), 'base58', false);
add('message changed after signing', A.address, messages.auth + ' ', good, 'base58', false);
add('claimed by the other wallet', B.address, messages.auth, good, 'base58', false);
add('truncated signature (63 bytes)', A.address, messages.auth, good.slice(0, 63), 'base58', false);
add('overlong signature (65 bytes)', A.address, messages.auth, Uint8Array.from([...good, 0]), 'base64', false);
cases.push({ name: 'address of 31 bytes', wallet_address: bs58.encode(A.kp.publicKey.slice(0, 31)), message: messages.auth, signature: bs58.encode(good), encoding: 'base58', verifies: false });
cases.push({ name: 'signature not in any alphabet', wallet_address: A.address, message: messages.auth, signature: '0OIl' + bs58.encode(good).slice(4), encoding: 'base58', verifies: false });

const out = {
  generator: 'agents/testdata/walletsig/gen.js with tweetnacl 1.0.3 and bs58 6.0.0',
  service,
  timestamp: ts,
  agent_id: agentID,
  keys: keys.map((k) => ({ label: k.label, seed_hex: Buffer.from(seed(k.label)).toString('hex'), wallet_address: k.address })),
  messages,
  cases,
};
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
