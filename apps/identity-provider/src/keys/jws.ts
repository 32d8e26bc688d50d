import { constants, sign } from 'node:crypto';
import type { ActiveSigner } from './signing-keys.js';

const encoded = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

// RFC 7518 §3.5: PS256 is RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt.
const PSS = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } as const;

/**
 * What node's `sign` takes for the key: RS256 (PKCS #1 v1.5, an RSA key's default) the KeyObject
 * alone. Given an object around it, node first tests whether that is a WebCrypto key by a native
 * check that throws and catches a TypeError, stack trace and all: about 20 µs of the event loop per
 * signature, measured, which every token paid.
 */
const keyFor = (signer: ActiveSigner) => (signer.alg === 'PS256' ? { key: signer.key, ...PSS } : signer.key);

/*
 * A header is the same for every token of one key and type: encoded once, not per token. Keys
 * rotate rarely, so the map stays a handful of entries; it is emptied should it ever grow.
 */
const headers = new Map<string, string>();

function encodedHeader(signer: ActiveSigner, typ: string): string {
  const id = `${signer.alg} ${signer.kid} ${typ}`;
  let header = headers.get(id);
  if (header === undefined) {
    if (headers.size >= 64) headers.clear();
    header = encoded({ alg: signer.alg, kid: signer.kid, typ });
    headers.set(id, header);
  }
  return header;
}

/**
 * A compact RS256 or PS256 JWS (RFC 7515) with the signer's key. The RSA operation runs on
 * libuv's thread pool (node's one-shot `sign` with a callback): it is most of a token's CPU cost,
 * and on the event loop it would hold up every other request for its duration.
 */
export function signJws(signer: ActiveSigner, header: { typ: string }, claims: object): Promise<string> {
  const input = `${encodedHeader(signer, header.typ)}.${encoded(claims)}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), keyFor(signer), (err, signature) => (err ? reject(err) : resolve(`${input}.${signature.toString('base64url')}`)));
  });
}
