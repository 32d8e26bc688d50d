import type { Db } from '@svc/db';
import { LocalTtlCache } from '@svc/kv';
import type { Application } from './application.js';
import type { EnvironmentGuard } from '../environment/environment.js';

const VSCHAR = /^[\x20-\x7E]+$/;

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
    private readonly environment: EnvironmentGuard,
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

  /** Why a client_id found no client: the other environment's, or simply unknown. */
  unknown(clientId: string): string {
    return this.environment.elsewhere('This client_id', clientId) ?? 'Unknown client';
  }
}
