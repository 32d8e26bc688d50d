import type { Db } from '@svc/db';
import { LocalTtlCache } from '@svc/kv';
import { verifyClientSecret } from '@svc/secrets';
import { invalidClient, invalidRequest } from '../errors.js';
import { ClientAssertions } from './client-assertions.js';

const VSCHAR = /^[\x20-\x7E]+$/;

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
    // RFC 6749 §A.1: a client_id is printable ASCII (VSCHAR); nothing else can name a client, and a
    // NUL byte must never reach PostgreSQL, which refuses it in text.
    if (clientId.length > 100 || !VSCHAR.test(clientId)) return null;
    const app = await this.cache.getOrLoad(clientId, () => this.db.application.findUnique({ where: { clientId } }));
    return app && app.status === 'active' ? app : null;
  }
}

export interface PresentedCredentials {
  clientId?: string | undefined;
  secret?: string | undefined;
  assertion?: string | undefined;
  /**
   * How the client authenticates: a secret in the Authorization header (client_secret_basic) or
   * the body (client_secret_post), a signed assertion (private_key_jwt), or not at all (public).
   */
  method: 'basic' | 'post' | 'private_key_jwt' | 'none';
}

interface CredentialFields {
  client_id?: unknown;
  client_secret?: unknown;
  client_assertion?: unknown;
  client_assertion_type?: unknown;
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw invalidRequest('Malformed HTTP Basic credentials: the client id and secret must use valid percent-encoding (RFC 6749 §2.3.1)');
  }
}

/** Reads what the request presents: client_secret_basic (RFC 6749 §2.3.1), _post, or private_key_jwt. */
export function credentialsFrom(authorization: string | undefined, body: CredentialFields): PresentedCredentials {
  const bodyClient = typeof body.client_id === 'string' ? body.client_id : undefined;
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw invalidClient('Malformed Basic credentials', true);
    const clientId = percentDecoded(decoded.slice(0, i));
    const secret = percentDecoded(decoded.slice(i + 1));
    if (bodyClient !== undefined && bodyClient !== clientId) throw invalidClient('client_id differs from the authenticated client', true);
    return { clientId, secret, method: 'basic' };
  }
  if (typeof body.client_assertion === 'string' && body.client_assertion_type !== undefined) {
    const clientId = bodyClient ?? ClientAssertions.claimedClient(body.client_assertion);
    return { clientId, assertion: body.client_assertion, method: 'private_key_jwt' };
  }
  if (typeof body.client_secret === 'string') return { clientId: bodyClient, secret: body.client_secret, method: 'post' };
  return { clientId: bodyClient, method: 'none' };
}

/**
 * A confidential client proves a secret (compared in constant time against its SHA-256) or signs
 * an assertion with a registered key; a public client sends only its id and relies on PKCE. A
 * confidential client that proves nothing is refused.
 */
export async function authenticateClient(clients: Clients, presented: PresentedCredentials, assertions: ClientAssertions): Promise<Application> {
  const basic = presented.method === 'basic';
  if (!presented.clientId) throw invalidClient('Client authentication is required', basic);
  const app = await clients.find(presented.clientId);
  if (!app) throw invalidClient('Unknown client', basic);
  if (app.isPublic) {
    if (presented.method !== 'none') throw invalidClient('A public client has no secret', basic);
    return app;
  }
  if (presented.method === 'private_key_jwt') {
    await assertions.verify(app, presented.assertion!);
    return app;
  }
  if (!presented.secret || !app.clientSecretHash || !verifyClientSecret(presented.secret, app.clientSecretHash)) {
    throw invalidClient('Client authentication failed', basic);
  }
  return app;
}
