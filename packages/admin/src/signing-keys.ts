import { ensureSigningKey, KEY_SERVICES, KeyEncryption, type KeyService, rewrapSigningKeys, rotateSigningKey as rotate } from '@svc/signing-keys';
import type { Db } from '@svc/db';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';

export { KEY_SERVICES };

/**
 * The key-encryption key the services seal their signing keys with: the context's, or the one in
 * SIGNING_KEY_KEK (and SIGNING_KEY_KEK_PREVIOUS) of this process's environment.
 */
export function keyEncryptionOf(ctx: AdminContext): KeyEncryption {
  if (ctx.keys) return ctx.keys;
  const kek = process.env.SIGNING_KEY_KEK;
  if (!kek || kek.length < 32) throw new AdminError('SIGNING_KEY_KEK must be set to the key-encryption key the services use (32 characters or more)');
  const previous = (process.env.SIGNING_KEY_KEK_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return new KeyEncryption(kek, previous);
}

function service(name: string): KeyService {
  if (!(KEY_SERVICES as readonly string[]).includes(name)) throw new AdminError(`--service must be one of ${KEY_SERVICES.join(', ')}`);
  return name as KeyService;
}

export interface RotateOptions {
  service: string;
  /** Seconds between publishing the new key and signing with it (identity provider only). */
  activateInSeconds?: number | undefined;
}

/** `keys:rotate`: a new key (sealed under SIGNING_KEY_KEK) replaces the service's current one. */
export async function rotateSigningKey(ctx: AdminContext, options: RotateOptions) {
  const which = service(options.service);
  const activateIn = options.activateInSeconds ?? 0;
  if (!Number.isInteger(activateIn) || activateIn < 0 || activateIn > 86_400) {
    throw new AdminError('--activate-in must be a whole number of seconds from 0 to 86400');
  }
  return rotate({ db: ctx.db as Db, now: ctx.now, keys: keyEncryptionOf(ctx) }, which, activateIn);
}

/** The service's active key, made when it has none (seeding; a fresh install needs no rotation step). */
export async function ensureKey(ctx: AdminContext, which: KeyService): Promise<string> {
  return (await ensureSigningKey({ db: ctx.db as Db, now: ctx.now, keys: keyEncryptionOf(ctx) }, which)).kid;
}

/** `keys:rewrap`: seals the service's stored keys under the current SIGNING_KEY_KEK (after a KEK rotation). */
export async function rewrapKeys(ctx: AdminContext, options: { service: string }) {
  return { service: options.service, rewrapped: await rewrapSigningKeys({ db: ctx.db as Db, keys: keyEncryptionOf(ctx) }, service(options.service)) };
}
