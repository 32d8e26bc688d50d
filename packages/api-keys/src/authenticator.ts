import { CountBatch, TimestampBatch, type Db } from '@svc/db';
import { LocalTtlCache } from '@svc/kv';
import { constantTimeEqual, parseApiKey } from '@svc/secrets';

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  keyHash: string;
  status: 'active' | 'disabled';
  permissions: string[];
  hourlyLimit: number;
  burstLimit: number;
}

export type ApiKeyResult =
  | { outcome: 'missing' }
  /** Malformed, or no such key: the caller cannot tell which. */
  | { outcome: 'unknown' }
  /** A well-formed key of the sandbox (`sbx_`): these services run in production only, so it opens nothing here. */
  | { outcome: 'sandbox' }
  | { outcome: 'disabled'; key: ApiKeyRecord }
  | { outcome: 'active'; key: ApiKeyRecord };

export interface ApiKeyAuthenticatorOptions {
  db: Db;
  /** How long a key's status and limits may be served from memory; a disable shows within it. */
  cacheTtlSeconds: number;
  /** last_used_at and the hourly request counts are written at most this often, each in one batched statement. */
  lastUsedFlushSeconds: number;
  onFlushError?: (err: unknown) => void;
  /** The service's clock (last_used_at stamps). */
  clock: { now(): Date };
}

/**
 * Authenticates `svck_` API keys. Malformed keys and keys whose check digits fail are refused
 * without I/O; real ones are looked up by their SHA-256 (cached briefly) and compared in
 * constant time. Use (the last time, and the requests per hour the developer console shows) is
 * recorded in memory and flushed in batches, never per request.
 */
export class ApiKeyAuthenticator {
  private readonly cache: LocalTtlCache<ApiKeyRecord | null>;
  private readonly lastUsed: TimestampBatch;
  private readonly usage: CountBatch;

  constructor(private readonly options: ApiKeyAuthenticatorOptions) {
    this.cache = new LocalTtlCache(options.cacheTtlSeconds * 1000);
    this.lastUsed = new TimestampBatch(options.db, 'ApiKey.lastUsedAt', options.lastUsedFlushSeconds, options.onFlushError);
    this.usage = new CountBatch(options.db, options.lastUsedFlushSeconds, options.onFlushError);
  }

  async authenticate(presented: string | string[] | undefined): Promise<ApiKeyResult> {
    if (presented === undefined || presented === '') return { outcome: 'missing' };
    if (typeof presented !== 'string') return { outcome: 'unknown' };
    const parsed = parseApiKey(presented);
    if (!parsed) return { outcome: 'unknown' };
    // Never looked up: the sandbox's keys live in the sandbox's database, not this one.
    if (parsed.environment === 'sandbox') return { outcome: 'sandbox' };
    const key = await this.cache.getOrLoad(parsed.hash, () => this.load(parsed.hash));
    if (!key || !constantTimeEqual(key.keyHash, parsed.hash)) return { outcome: 'unknown' };
    if (key.status !== 'active') return { outcome: 'disabled', key };
    const now = this.options.clock.now();
    this.lastUsed.record(key.id, now);
    this.usage.record(key.id, now);
    return { outcome: 'active', key };
  }

  private async load(hash: string): Promise<ApiKeyRecord | null> {
    return this.options.db.apiKey.findUnique({
      where: { keyHash: hash },
      select: { id: true, organizationId: true, keyHash: true, status: true, permissions: true, hourlyLimit: true, burstLimit: true },
    });
  }

  /** Writes pending last_used_at values (never moving one backwards) and request counts. */
  async flush(): Promise<void> {
    await Promise.all([this.lastUsed.flush(), this.usage.flush()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.lastUsed.close(), this.usage.close()]);
  }
}
