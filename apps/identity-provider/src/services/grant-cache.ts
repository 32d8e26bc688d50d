import { ChangeListener } from '@svc/db';
import type { Logger } from '@svc/http';
import type { Clock } from '@svc/runtime';
import type { Grant } from './access-tokens.js';

export const GRANT_CHANNEL = 'svc_grants';

interface Entry {
  grant: Grant;
  applicationId: string;
  /** The token's expiry (ms): the entry never outlives it. */
  expiresAt: number;
}

export type GrantLookup = 'hit' | 'miss' | 'bypass';

/**
 * What a bearer request needs to know about its token (the grant behind it, its client's status,
 * whether the token itself is revoked), kept in this replica's memory by token id and kept true
 * by PostgreSQL: triggers announce every change that matters on `svc_grants` when it commits
 * (authorization status and scopes, client status, anything about the user, a revoked token),
 * and this replica's listener drops what changed.
 *
 * Only while the listener is live (subscribed, and its own heartbeat heard back within the bound)
 * is anything served from here; otherwise every request reads the database as before, and the
 * cache starts empty when the listener comes back. A read that races a change is not cached: each
 * change bumps `sequence`, and an entry loaded before a bump is dropped on arrival.
 */
export class GrantCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listener: ChangeListener;
  private readonly max: number;
  private readonly observe: (lookup: GrantLookup) => void;
  private seq = 0;

  constructor(
    private readonly clock: Clock,
    options: { databaseUrl: string; logger: Logger; max?: number; heartbeatMs?: number; deadAfterMs?: number; observe?: (lookup: GrantLookup) => void },
  ) {
    this.max = options.max ?? 50_000;
    this.observe = options.observe ?? (() => undefined);
    const { logger } = options;
    this.listener = new ChangeListener({
      url: options.databaseUrl,
      channel: GRANT_CHANNEL,
      heartbeatMs: options.heartbeatMs,
      deadAfterMs: options.deadAfterMs,
      onChange: (payload) => this.changed(payload),
      onLiveness: (live) => {
        this.flush();
        logger[live ? 'info' : 'warn'](
          live ? 'grant cache live: bearer checks served from memory' : 'grant cache off: bearer checks read the database until the listener is back',
        );
      },
      onError: (err) => logger.warn({ err: err.message }, 'grant change listener'),
    });
  }

  start(): this {
    this.listener.start();
    return this;
  }

  /** Whether grants are served from memory now (for /ready). */
  get live(): boolean {
    return this.listener.isLive;
  }

  /** The listener connection's application_name in pg_stat_activity. */
  get listenerName(): string {
    return this.listener.name;
  }

  /** Take before reading the database; hand back to `set`. */
  get sequence(): number {
    return this.seq;
  }

  get(jti: string): Grant | undefined {
    if (!this.live) {
      this.observe('bypass');
      return undefined;
    }
    const entry = this.entries.get(jti);
    if (!entry || entry.expiresAt <= this.clock.now().getTime()) {
      if (entry) this.entries.delete(jti);
      this.observe('miss');
      return undefined;
    }
    this.observe('hit');
    return entry.grant;
  }

  set(jti: string, grant: Grant, applicationId: string, expiresAt: number, sequence: number): void {
    if (!this.live || sequence !== this.seq) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(jti, { grant, applicationId, expiresAt });
  }

  /** A change this replica made itself: dropped at once, without waiting for its notification. */
  changed(payload: string): void {
    this.seq++;
    const [kind, id] = [payload.slice(0, 1), payload.slice(2)];
    if (kind === 't') {
      this.entries.delete(id);
      return;
    }
    for (const [jti, entry] of this.entries) {
      const hit =
        kind === 'a' ? entry.grant.authorizationId === id : kind === 'u' ? entry.grant.userId === id : kind === 'c' ? entry.applicationId === id : true;
      if (hit) this.entries.delete(jti);
    }
  }

  private flush(): void {
    this.seq++;
    this.entries.clear();
  }

  async close(): Promise<void> {
    await this.listener.stop();
  }
}
