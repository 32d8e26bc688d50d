// Baseline: @sd-jwt/sd-jwt-vc verifying one SD-JWT VC presentation alone on one thread (the
// issuer's ES256 signature, the disclosures' digests, the key binding JWT's signature, nonce and
// sd_hash: what each wallet answer costs a verifier before any HTTP, trust or status), in a
// process of its own.
//   node raw-sd-jwt-verify.mjs <seconds>  → prints presentations verified per second
import { createHash, createPublicKey, randomUUID, sign, verify } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { exportJWK, generateKeyPair } from 'jose';
import { printPerSecond } from './per-second.mjs';

const seconds = Number(process.argv[2]);
const pair = async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
};
const [issuer, holder] = await Promise.all([pair(), pair()]);
const signer = (jwk) => (data) => sign('sha256', Buffer.from(data), { key: jwk, format: 'jwk', dsaEncoding: 'ieee-p1363' }).toString('base64url');
const verifier = (jwk) => (data, signature) =>
  verify('sha256', Buffer.from(data), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
const sdJwt = new SDJwtVcInstance({
  hasher: (data) => createHash('sha256').update(data).digest(),
  hashAlg: 'sha-256',
  saltGenerator: () => randomUUID(),
  signer: signer(issuer.privateJwk),
  signAlg: 'ES256',
  kbSigner: signer(holder.privateJwk),
  kbSignAlg: 'ES256',
  verifier: verifier(issuer.publicJwk),
  kbVerifier: (data, signature, payload) => verifier(payload.cnf.jwk)(data, signature),
});
const now = Math.floor(Date.now() / 1000);
const credential = await sdJwt.issue(
  {
    iss: 'http://localhost:4002',
    vct: 'http://localhost:4002/credential-types/age-over',
    iat: now,
    exp: now + 86_400,
    cnf: { jwk: holder.publicJwk },
    age_over_18: true,
    age_over_21: true,
  },
  { _sd: ['age_over_18', 'age_over_21'] },
  { header: { typ: 'dc+sd-jwt' } },
);
const presentation = await sdJwt.present(credential, { age_over_18: true }, { kb: { payload: { aud: 'x509_hash:bench', nonce: 'bench-nonce', iat: now } } });
const once = () => sdJwt.verify(presentation, { keyBindingNonce: 'bench-nonce' });
await printPerSecond(seconds, once);
