import { randomBytes } from 'node:crypto';
import { deriveKey, seal, sha256Hex, unseal } from '@svc/secrets';

/** How a private key sits in the database: its own data key, wrapped by a key-encryption key. */
export interface SealedPrivateKey {
  enc: 'envelope-v1';
  /** Which key-encryption key wrapped the data key (a fingerprint, never the key). */
  kek: string;
  dek: string;
  data: string;
}

const isSealed = (stored: unknown): stored is SealedPrivateKey =>
  typeof stored === 'object' && stored !== null && (stored as { enc?: unknown }).enc === 'envelope-v1';

interface Kek {
  id: string;
  key: Buffer;
}

const kekFrom = (secret: string): Kek => {
  const key = deriveKey(secret, 'signing-key-kek');
  return { id: sha256Hex(key.toString('base64')).slice(0, 16), key };
};

/**
 * Envelope encryption of signing keys at rest: each private key is encrypted (AES-256-GCM) with a
 * data key of its own, and the data key with the key-encryption key from configuration
 * (SIGNING_KEY_KEK), both bound to the key id. A database dump alone opens nothing. To rotate the
 * KEK, configure the new one and list the old one in SIGNING_KEY_KEK_PREVIOUS; `keys:rewrap` then
 * re-wraps every data key under the new one, after which the old one can go.
 */
export class KeyEncryption {
  private readonly current: Kek;
  private readonly all: Map<string, Kek>;

  constructor(current: string, previous: readonly string[] = []) {
    this.current = kekFrom(current);
    this.all = new Map([this.current, ...previous.map(kekFrom)].map((k) => [k.id, k]));
  }

  seal(privateKey: object, kid: string): SealedPrivateKey {
    const dek = randomBytes(32);
    return {
      enc: 'envelope-v1',
      kek: this.current.id,
      dek: seal(this.current.key, dek.toString('base64'), kid),
      data: seal(dek, JSON.stringify(privateKey), kid),
    };
  }

  /** The private key; a row written before encryption existed (plain JSON) is returned as it is. */
  open<T>(stored: unknown, kid: string): T {
    if (!isSealed(stored)) return stored as T;
    const kek = this.all.get(stored.kek);
    if (!kek)
      throw new Error(
        `signing key ${kid} is wrapped by a key-encryption key that is not configured (${stored.kek}); set SIGNING_KEY_KEK or SIGNING_KEY_KEK_PREVIOUS`,
      );
    const dek = Buffer.from(unseal(kek.key, stored.dek, kid), 'base64');
    return JSON.parse(unseal(dek, stored.data, kid)) as T;
  }

  /** Whether `stored` still needs (re)wrapping under the current key-encryption key. */
  needsRewrap(stored: unknown): boolean {
    return !isSealed(stored) || stored.kek !== this.current.id;
  }
}
