import { type KeyObject, sign } from 'node:crypto';

const encoded = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A compact RS256 JWS (RFC 7515). The RSA operation runs on libuv's thread pool (node's one-shot
 * `sign` with a callback): it is most of a token's CPU cost, and on the event loop it would hold
 * up every other request for its duration.
 */
export function signRs256(key: KeyObject, header: { kid: string; typ: string }, claims: object): Promise<string> {
  const input = `${encoded({ alg: 'RS256', ...header })}.${encoded(claims)}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), key, (err, signature) => (err ? reject(err) : resolve(`${input}.${signature.toString('base64url')}`)));
  });
}
