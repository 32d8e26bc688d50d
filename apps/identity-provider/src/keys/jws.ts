import { constants, type KeyObject, sign } from 'node:crypto';
import type { ActiveSigner } from './signing-keys.js';

const encoded = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

// RFC 7518 §3.5: PS256 is RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt.
const PADDING = {
  RS256: { padding: constants.RSA_PKCS1_PADDING },
  PS256: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
} as const;

/**
 * A compact RS256 or PS256 JWS (RFC 7515) with the signer's key. The RSA operation runs on
 * libuv's thread pool (node's one-shot `sign` with a callback): it is most of a token's CPU cost,
 * and on the event loop it would hold up every other request for its duration.
 */
export function signJws(signer: ActiveSigner, header: { typ: string }, claims: object): Promise<string> {
  const input = `${encoded({ alg: signer.alg, kid: signer.kid, ...header })}.${encoded(claims)}`;
  const key: { key: KeyObject; padding: number; saltLength?: number } = { key: signer.key, ...PADDING[signer.alg] };
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), key, (err, signature) => (err ? reject(err) : resolve(`${input}.${signature.toString('base64url')}`)));
  });
}
