import {
  ensureSigningKey,
  KEK_VARIABLES,
  KEY_SERVICES,
  KeyEncryption,
  type KeyService,
  rewrapSigningKeys,
  rewrapWebhookSecrets,
  rotateSigningKey as rotate,
} from '@svc/signing-keys';
import type { Db } from '@svc/db';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';

export { KEY_SERVICES };

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

/**
 * The key encryption a service seals its signing keys with: the context's, or the one built from
 * this process's environment: the service's own KEK (IDP_SIGNING_KEY_KEK or
 * ISSUER_SIGNING_KEY_KEK, and its `_PREVIOUS` list).
 */
export function keyEncryptionOf(ctx: AdminContext, which: KeyService): KeyEncryption {
  const given = ctx.keys?.[which];
  if (given) return given;
  const name = KEK_VARIABLES[which];
  const own = process.env[name] || undefined;
  if (!own) throw new AdminError(`${name} must be set to the key-encryption key the ${which} uses (32 characters or more)`);
  if (own.length < 32) throw new AdminError(`${name} must be 32 characters or more`);
  return new KeyEncryption(which, { current: own, previous: list(process.env[`${name}_PREVIOUS`]) });
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

/** `keys:rotate`: a new key (sealed under the service's own KEK) replaces the service's current one. */
export async function rotateSigningKey(ctx: AdminContext, options: RotateOptions) {
  const which = service(options.service);
  const activateIn = options.activateInSeconds ?? 0;
  if (!Number.isInteger(activateIn) || activateIn < 0 || activateIn > 86_400) {
    throw new AdminError('--activate-in must be a whole number of seconds from 0 to 86400');
  }
  return rotate({ db: ctx.db as Db, now: ctx.now, keys: keyEncryptionOf(ctx, which) }, which, activateIn);
}

/** The service's active key, made when it has none (seeding; a fresh install needs no rotation step). */
export async function ensureKey(ctx: AdminContext, which: KeyService): Promise<string> {
  return (await ensureSigningKey({ db: ctx.db as Db, now: ctx.now, keys: keyEncryptionOf(ctx, which) }, which)).kid;
}

/**
 * `keys:rewrap`: seals the service's stored keys under its own current KEK after a KEK rotation
 * (the old one in its `_PREVIOUS` list).
 * The identity provider's KEK also seals its webhook endpoints' signing secrets: those too.
 */
export async function rewrapKeys(ctx: AdminContext, options: { service: string }) {
  const which = service(options.service);
  if (!ctx.keys?.[which] && !process.env[KEK_VARIABLES[which]]) {
    throw new AdminError(`${KEK_VARIABLES[which]} must be set: keys:rewrap seals the ${which}'s keys under its own key-encryption key`);
  }
  const keys = keyEncryptionOf(ctx, which);
  const rewrapped = await rewrapSigningKeys({ db: ctx.db as Db, keys }, which);
  if (which !== 'identity-provider') return { service: which, rewrapped };
  return { service: which, rewrapped, webhook_secrets_rewrapped: await rewrapWebhookSecrets(ctx.db as Db, keys) };
}
