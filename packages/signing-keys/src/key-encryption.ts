import { randomBytes } from 'node:crypto';
import { deriveKey, seal, sha256Hex, unseal } from '@svc/secrets';
import type { KeyService } from './generate.js';

/** How a private key sits in the database: its own data key, wrapped by a key-encryption key. */
export interface SealedPrivateKey {
  enc: 'envelope-v1';
  /** Which key-encryption key wrapped the data key (a fingerprint, never the key). */
  kek: string;
  dek: string;
  data: string;
}

/** The variable that holds each service's own key-encryption key (its `_PREVIOUS` list beside it). */
export const KEK_VARIABLES: Record<KeyService, string> = {
  'identity-provider': 'IDP_SIGNING_KEY_KEK',
  'credential-issuer': 'ISSUER_SIGNING_KEY_KEK',
};

const isSealed = (stored: unknown): stored is SealedPrivateKey =>
  typeof stored === 'object' && stored !== null && (stored as { enc?: unknown }).enc === 'envelope-v1';

interface Kek {
  id: string;
  key: Buffer;
  /** The associated data a data key is wrapped with: the key id, and the service for bound keys. */
  context: (kid: string) => string;
}

/**
 * A service's KEK is derived with the service's name: the same secret configured for both
 * services still gives two keys, and what one wrapped does not open for the other.
 */
const boundKek = (secret: string, service: KeyService): Kek => {
  const key = deriveKey(secret, `signing-key-kek:${service}`);
  return { id: sha256Hex(key.toString('base64')).slice(0, 16), key, context: (kid) => `${service}:${kid}` };
};

export interface KekSettings {
  /** The service's own key-encryption key (IDP_SIGNING_KEY_KEK, ISSUER_SIGNING_KEY_KEK). */
  current?: string | undefined;
  /** The service's earlier keys during a KEK rotation (…_SIGNING_KEY_KEK_PREVIOUS). */
  previous?: readonly string[];
}

/**
 * Envelope encryption of one service's signing keys at rest: each private key is encrypted
 * (AES-256-GCM) with a data key of its own, and the data key with the service's key-encryption
 * key, both bound to the key id (and the KEK to the service). A database dump alone opens
 * nothing, and the credential issuer's KEK opens none of the identity provider's keys. To rotate
 * a KEK, configure the new one and list the old one in the service's `_PREVIOUS` variable;
 * `keys:rewrap` then re-wraps every data key under the new one, after which the old one can go.
 */
export class KeyEncryption {
  private readonly current: Kek;
  private readonly all: Map<string, Kek>;

  constructor(
    readonly service: KeyService,
    settings: KekSettings,
  ) {
    if (!settings.current) throw new Error(`${KEK_VARIABLES[service]} must be set: the key-encryption key of the ${service}'s signing keys`);
    const current = boundKek(settings.current, service);
    this.current = current;
    const previous = (settings.previous ?? []).map((secret) => boundKek(secret, service));
    this.all = new Map([current, ...previous].map((k) => [k.id, k]));
  }

  seal(privateKey: object, kid: string): SealedPrivateKey {
    const dek = randomBytes(32);
    return {
      enc: 'envelope-v1',
      kek: this.current.id,
      dek: seal(this.current.key, dek.toString('base64'), this.current.context(kid)),
      data: seal(dek, JSON.stringify(privateKey), kid),
    };
  }

  /** The private key; a row written before encryption existed (plain JSON) is returned as it is. */
  open<T>(stored: unknown, kid: string): T {
    if (!isSealed(stored)) return stored as T;
    const kek = this.all.get(stored.kek);
    if (!kek) {
      const name = KEK_VARIABLES[this.service];
      throw new Error(
        `signing key ${kid} of the ${this.service} is wrapped by a key-encryption key that is not configured (${stored.kek}); set ${name} or ${name}_PREVIOUS`,
      );
    }
    const dek = Buffer.from(unseal(kek.key, stored.dek, kek.context(kid)), 'base64');
    return JSON.parse(unseal(dek, stored.data, kid)) as T;
  }

  /** Whether `stored` still needs (re)wrapping under the current key-encryption key. */
  needsRewrap(stored: unknown): boolean {
    return !isSealed(stored) || stored.kek !== this.current.id;
  }

  /** Throws unless this seals `service`'s keys: one service's KEK never wraps the other's keys. */
  assertFor(service: KeyService): void {
    if (service !== this.service) throw new Error(`the ${this.service}'s key encryption cannot seal or open the ${service}'s signing keys`);
  }
}
