import { randomBytes } from 'node:crypto';
import type { Db } from '@svc/db';
import type { KeyEncryption } from './key-encryption.js';

/** A new endpoint's secret, as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Webhook endpoints' signing secrets at rest: sealed with the identity provider's key-encryption
 * key (envelope encryption, as its signing keys are) and bound to the endpoint's id, so a database
 * dump opens none and one endpoint's sealed secret does not open as another's.
 */
export class WebhookSecrets {
  constructor(private readonly encryption: KeyEncryption) {
    encryption.assertFor('identity-provider');
  }

  seal(endpointId: string, secret: string): object {
    return this.encryption.seal({ secret }, `webhook:${endpointId}`);
  }

  open(endpointId: string, sealed: unknown): string {
    return this.encryption.open<{ secret: string }>(sealed, `webhook:${endpointId}`).secret;
  }

  needsRewrap(sealed: unknown): boolean {
    return this.encryption.needsRewrap(sealed);
  }
}

/**
 * Seals every endpoint's secret, and a rotated-out one still in its overlap, under the current
 * KEK (after a KEK rotation, with the old one in IDP_SIGNING_KEY_KEK_PREVIOUS). Each row is
 * written only if it still holds what was read, so a rotation meanwhile is never undone. Returns
 * how many rows changed.
 */
export async function rewrapWebhookSecrets(db: Db, keys: KeyEncryption): Promise<number> {
  const secrets = new WebhookSecrets(keys);
  const rows = await db.webhookEndpoint.findMany({ select: { id: true, secret: true, previousSecret: true } });
  let changed = 0;
  for (const row of rows) {
    const rewrap = (sealed: unknown) => (sealed && secrets.needsRewrap(sealed) ? secrets.seal(row.id, secrets.open(row.id, sealed)) : undefined);
    const [secret, previousSecret] = [rewrap(row.secret), rewrap(row.previousSecret)];
    if (!secret && !previousSecret) continue;
    const { count } = await db.webhookEndpoint.updateMany({
      where: { id: row.id, secret: { equals: row.secret as object } },
      data: { ...(secret ? { secret } : {}), ...(previousSecret ? { previousSecret } : {}) },
    });
    changed += count;
  }
  return changed;
}
