import type { Db } from '@svc/db';
import type { Logger } from '@svc/http';
import { type Cache, LocalTtlCache } from '@svc/kv';
import type { SubjectData } from '@svc/presets';
import type { Grant } from '../tokens/grant.js';
import { presetCacheKey } from '../tokens/preset-cache-entry.js';
import { loadSubject, minimizeSubject, reviveSubject } from './subject-data.js';

export type CacheOutcome = 'hit' | 'miss' | 'stale' | 'error';

/**
 * The preset cache (DESIGN, "Data access"): per authorization, the user's data its scopes can
 * read, kept for what is left of the data window. The database stays the source of truth: each
 * entry is stamped with the user's data version, which comes with the token's grant (kept true by
 * the grant cache), so a change to the user's data is seen by every replica, and a Redis outage or
 * flush costs a database read, never a wrong answer. In front of Redis, each replica keeps the
 * last minute's subjects in memory under the same stamp, so a hot authorization costs no I/O;
 * a revoked grant never reaches them (the bearer check refuses it first), and they expire in 60 s.
 */
export class PresetCache {
  private readonly local = new LocalTtlCache<{ version: string; subject: SubjectData }>(60_000, 10_000);

  constructor(
    private readonly db: Db,
    private readonly cache: Cache,
    private readonly logger: Logger,
    private readonly observe: (outcome: CacheOutcome) => void = () => undefined,
  ) {}

  async subject(grant: Grant, now: Date): Promise<SubjectData> {
    const near = this.local.get(grant.authorizationId);
    if (near?.version === grant.dataVersion) {
      this.observe('hit');
      return near.subject;
    }
    const subject = await this.shared(grant, now);
    this.local.set(grant.authorizationId, { version: grant.dataVersion, subject });
    return subject;
  }

  private async shared(grant: Grant, now: Date): Promise<SubjectData> {
    const cached = await this.cache.get(presetCacheKey(grant.authorizationId)).catch((err: unknown) => {
      this.logger.warn({ err: (err as Error).message }, 'preset cache unavailable; reading the database');
      return undefined;
    });
    if (cached) {
      const separator = cached.indexOf('|');
      if (cached.slice(0, separator) === grant.dataVersion) {
        this.observe('hit');
        return reviveSubject(cached.slice(separator + 1));
      }
    }
    this.observe(cached === undefined ? 'error' : cached ? 'stale' : 'miss');
    const subject = minimizeSubject(await loadSubject(this.db, grant.userId), grant.grantedScopes);
    const ttl = Math.floor((grant.dataWindowEndsAt.getTime() - now.getTime()) / 1000);
    if (ttl > 0) {
      await this.cache.set(presetCacheKey(grant.authorizationId), `${grant.dataVersion}|${JSON.stringify(subject)}`, ttl).catch(() => undefined);
    }
    return subject;
  }
}
