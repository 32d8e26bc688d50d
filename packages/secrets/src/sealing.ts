import { createCipheriv, createDecipheriv, createHmac, createSecretKey, KeyObject, randomBytes } from 'node:crypto';

/**
 * node's ciphers first ask whether a key is a KeyObject, then whether it is a WebCrypto key, each by
 * a native check that throws and catches a TypeError when it is not: a raw Buffer paid both, stack
 * traces and all (about as much as the sealing itself, measured). createSecretKey takes the bytes
 * without asking.
 */
const secretKey = (key: Buffer | KeyObject) => (key instanceof KeyObject ? key : createSecretKey(key));

/**
 * AES-256-GCM with a random 96-bit nonce: `v1.<nonce>.<ciphertext>.<tag>` in base64url. `context`
 * is bound as associated data, so a value sealed for one purpose (or one row) does not open as
 * another.
 */
export function seal(key: Buffer | KeyObject, plaintext: string, context = ''): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(key), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The plaintext of `seal(key, …, context)`; throws when the key, context or value is wrong. */
export function unseal(key: Buffer | KeyObject, sealed: string, context = ''): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(key), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A 256-bit key for one purpose, derived from a longer-lived secret (HMAC-SHA-256 as a KDF). */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`svc-key:${purpose}`).digest();
}
