import type { Db } from '@svc/db';
import { LocalTtlCache } from '@svc/kv';
import { verifyClientSecret } from '@svc/secrets';
import { invalidClient } from '../errors.js';

export type Application = NonNullable<Awaited<ReturnType<Db['application']['findUnique']>>>;

/**
 * Registered clients, each kept in memory for `ttlMs` (5 s): every token request authenticates
 * its client, and clients change rarely. A client revoked meanwhile may still obtain a token for
 * that long, but no token of a revoked client is ever accepted: every bearer request checks the
 * client's status in the database.
 */
export class Clients {
  private readonly cache: LocalTtlCache<Application | null>;

  constructor(
    private readonly db: Db,
    ttlMs = 5_000,
  ) {
    this.cache = new LocalTtlCache(ttlMs, 10_000);
  }

  /** An active client, or null. */
  async find(clientId: string): Promise<Application | null> {
    if (clientId.length > 100) return null;
    const app = await this.cache.getOrLoad(clientId, () => this.db.application.findUnique({ where: { clientId } }));
    return app && app.status === 'active' ? app : null;
  }
}

export interface PresentedCredentials {
  clientId?: string | undefined;
  secret?: string | undefined;
  /** How the secret came: the Authorization header (client_secret_basic) or the body (client_secret_post). */
  method: 'basic' | 'post' | 'none';
}

/** Reads client_secret_basic (RFC 6749 §2.3.1: form-urlencoded id and secret in Basic). */
export function credentialsFrom(authorization: string | undefined, body: { client_id?: unknown; client_secret?: unknown }): PresentedCredentials {
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw invalidClient('Malformed Basic credentials', true);
    const clientId = decodeURIComponent(decoded.slice(0, i));
    if (typeof body.client_id === 'string' && body.client_id !== clientId) throw invalidClient('client_id differs from the authenticated client', true);
    return { clientId, secret: decodeURIComponent(decoded.slice(i + 1)), method: 'basic' };
  }
  const clientId = typeof body.client_id === 'string' ? body.client_id : undefined;
  if (typeof body.client_secret === 'string') return { clientId, secret: body.client_secret, method: 'post' };
  return { clientId, method: 'none' };
}

/**
 * A confidential client must prove its secret (compared in constant time against its SHA-256);
 * a public client sends only its id and relies on PKCE. A confidential client without a secret
 * is refused.
 */
export async function authenticateClient(clients: Clients, presented: PresentedCredentials): Promise<Application> {
  const basic = presented.method === 'basic';
  if (!presented.clientId) throw invalidClient('Client authentication is required', basic);
  const app = await clients.find(presented.clientId);
  if (!app) throw invalidClient('Unknown client', basic);
  if (app.isPublic) {
    if (presented.method !== 'none') throw invalidClient('A public client has no secret', basic);
    return app;
  }
  if (!presented.secret || !app.clientSecretHash || !verifyClientSecret(presented.secret, app.clientSecretHash)) {
    throw invalidClient('Client authentication failed', basic);
  }
  return app;
}
