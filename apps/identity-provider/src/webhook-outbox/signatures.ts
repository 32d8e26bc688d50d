import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` and 32
 * random bytes in base64; a signature is `v1,` and the base64 HMAC-SHA256, keyed with those bytes,
 * of `<webhook-id>.<webhook-timestamp>.<body>`. Any of the specification's libraries verifies it.
 */
const PREFIX = 'whsec_';

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

/** The `webhook-signature` header: one `v1,` signature per secret, space-separated (two during a rotation). */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`).join(' ');
}
