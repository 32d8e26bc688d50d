import { type Db, isUniqueViolation } from '@svc/db';
import type { KeyEncryption } from '@svc/signing-keys';
import type { JsonWebKey } from './certificates.js';

/** A key of the issuer's own that is made once and kept (a row among its signing keys, the private half sealed like theirs). */
export interface StoredKey<Public> {
  publicPart: Public;
  privateJwk: JsonWebKey;
}

/**
 * The key stored under `kid`, made with `make` on the first call anywhere: however many replicas
 * ask at once, the first one stored is everyone's.
 */
export async function storedOnce<Public extends object>(
  deps: { db: Db; keys: KeyEncryption },
  kid: string,
  algorithm: string,
  make: () => Promise<StoredKey<Public>>,
): Promise<StoredKey<Public>> {
  const read = async () => {
    const row = await deps.db.signingKey.findUnique({ where: { kid } });
    return row ? { publicPart: row.publicKey as Public, privateJwk: deps.keys.open<JsonWebKey>(row.privateKey, row.kid) } : undefined;
  };
  const found = await read();
  if (found) return found;
  const made = await make();
  try {
    await deps.db.signingKey.create({
      data: {
        kid,
        service: 'credential-issuer',
        algorithm,
        publicKey: made.publicPart as never,
        privateKey: { ...deps.keys.seal(made.privateJwk, kid) },
        status: 'active',
      },
    });
  } catch (err) {
    // Another replica stored its own first: that one is the key.
    if (!isUniqueViolation(err)) throw err;
  }
  return (await read())!;
}

/**
 * `load` run once, its result shared by every caller after; a failure (a database that was not up
 * yet) is not kept, so the next caller asks again.
 */
export function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  };
}
