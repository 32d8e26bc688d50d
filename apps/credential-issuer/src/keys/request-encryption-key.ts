import { generateKeyPairSync } from 'node:crypto';
import type { Db } from '@svc/db';
import type { KeyEncryption } from '@svc/signing-keys';
import { importJWK, type JWK } from 'jose';
import type { JsonWebKey } from './certificates.js';
import { loadedOnce, storedOnce } from './stored-once.js';

const KID = 'credential-issuer-request-encryption';

/**
 * The key wallets encrypt credential requests to (OpenID4VCI 1.0 §10, `credential_request_encryption`):
 * ECDH-ES on P-256, made on the first start and kept, the same on every replica. Loaded once.
 */
export class RequestEncryptionKey {
  private readonly load = loadedOnce(async () => {
    const stored = await storedOnce<JWK>(this.deps, KID, 'ECDH-ES', async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const publicJwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: KID, use: 'enc', alg: 'ECDH-ES' };
      return { publicPart: publicJwk, privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey };
    });
    return { publicJwk: stored.publicPart, privateKey: await importJWK(stored.privateJwk as JWK, 'ECDH-ES') };
  });

  constructor(private readonly deps: { db: Db; keys: KeyEncryption }) {}

  /** The public key, as the metadata's `credential_request_encryption.jwks` lists it. */
  async publicJwk(): Promise<JWK> {
    return (await this.load()).publicJwk;
  }

  async privateKey() {
    return (await this.load()).privateKey;
  }
}
