import { createHmac } from 'node:crypto';

/** Independent keys for independent uses, all derived from IDP_SECRET. */
export function keyedHash(secret: string, purpose: 'csrf' | 'pairwise', ...parts: string[]): string {
  return createHmac('sha256', `${purpose}:${secret}`).update(parts.join('\u0000')).digest('base64url');
}

/**
 * The pairwise subject: stable per (user, organization), unlinkable across organizations, and
 * useless without the server secret (OpenID Connect §8.1).
 */
export function appScopedUserId(secret: string, organizationId: string, userId: string): string {
  return `asu_${keyedHash(secret, 'pairwise', organizationId, userId).slice(0, 32)}`;
}
