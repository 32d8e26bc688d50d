import { createHmac } from 'node:crypto';

/** Independent keys for independent uses, all derived from IDP_SECRET. */
export function keyedHash(secret: string, purpose: 'csrf' | 'pairwise' | 'sid' | 'webauthn-user', ...parts: string[]): string {
  return createHmac('sha256', `${purpose}:${secret}`).update(parts.join('\u0000')).digest('base64url');
}

/**
 * The pairwise subject: stable per (user, organization), unlinkable across organizations, and
 * useless without the server secret (OpenID Connect §8.1).
 */
export function appScopedUserId(secret: string, organizationId: string, userId: string): string {
  return `asu_${keyedHash(secret, 'pairwise', organizationId, userId).slice(0, 32)}`;
}

/**
 * A session's `sid` as one client sees it (id_tokens, logout tokens): stable for that session and
 * client, so the client can match a logout to its own session, and different for every client, so
 * clients cannot link a user across them by the session either.
 */
export function clientSessionId(secret: string, clientId: string, sessionId: string): string {
  return keyedHash(secret, 'sid', clientId, sessionId).slice(0, 32);
}
