// Baseline: jose signing an SD-JWT VC-sized ES256 JWT on one thread (the one signature each
// wallet credential costs), in a process of its own.
//   node raw-es256.mjs <seconds>  → prints signatures per second
import { createHash, randomBytes } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { printPerSecond } from './per-second.mjs';

const seconds = Number(process.argv[2]);
const { privateKey } = await generateKeyPair('ES256');
const digest = () => createHash('sha256').update(randomBytes(32)).digest('base64url');
const payload = {
  iss: 'http://localhost:4002',
  vct: 'http://localhost:4002/credential-types/age-over',
  jti: 'urn:uuid:7d0b3f0e-4b1a-4c55-9f4c-0e6f5d8a1b2c',
  iat: 1795600800,
  exp: 1827136800,
  cnf: { jwk: { kty: 'EC', crv: 'P-256', x: digest(), y: digest() } },
  status: { status_list: { idx: 4711, uri: 'http://localhost:4002/token-status-lists/3c1e6a0f-8b2d-4f57-9e4a-6d0c2b7f1a95' } },
  _sd: [digest(), digest(), digest(), digest()],
  _sd_alg: 'sha-256',
};
const sign = () => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', kid: 'bench' }).sign(privateKey);
await printPerSecond(seconds, sign);
