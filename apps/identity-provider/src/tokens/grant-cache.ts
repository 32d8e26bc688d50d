import { ChangeListener } from '@svc/db';
import type { Logger } from '@svc/http';
import type { Clock } from '@svc/runtime';
import type { Grant } from './grant.js';

export const GRANT_CHANNEL = 'svc_grants';

export interface GrantEntry {
  grant: Grant;
  applicationId: string;
  /** The token's expiry (ms): the entry never outlives it. */
  expiresAt: number;
}

export type GrantLookup = 'hit' | 'miss' | 'bypass';

/** The user-token lookup's answer: the latest active authorization of a client and user. */
export interface ActiveAuthorization {
  id: string;
  userId: string;
  grantedScopes: string[];
}

interface AuthorizationEntry {
  authorization: ActiveAuthorization;
  applicationId: string;
  expiresAt: number;
}

/** Belt and braces: a user-token lookup is kept at most this long even while nothing changes. */
const AUTHORIZATION_TTL_MS = 300_000;

/**
 * A change: a (authorization), g (an authorization of a client and user: `<application id>:<user id>`),
 * c (client), u (user), t (token), or * (everything: liveness changed).
 */
interface Change {
  seq: number;
  kind: string;
  id: string;
}

const LOG_SIZE = 1_000;

function concerns(change: Change, jti: string, entry: GrantEntry): boolean {
  switch (change.kind) {
    case 't':
      return change.id === jti;
    case 'a':
      return change.id === entry.grant.authorizationId;
    case 'u':
      return change.id === entry.grant.userId;
    case 'c':
      return change.id === entry.applicationId;
    case 'g':
      return false;
    default:
      return true;
  }
}

function concernsAuthorization(change: Change, entry: AuthorizationEntry): boolean {
  switch (change.kind) {
    case 'a':
      return change.id === entry.authorization.id;
    case 'g':
      return change.id === `${entry.applicationId}:${entry.authorization.userId}`;
    case 'u':
      return change.id === entry.authorization.userId;
    case 'c':
      return change.id === entry.applicationId;
    case 't':
      return false;
    default:
      return true;
  }
}

/**
 * What a bearer request needs to know about its token (the grant behind it, its client's status,
 * whether the token itself is revoked), kept in this replica's memory by token id and kept true
 * by PostgreSQL: triggers announce every change that matters on `svc_grants` when it commits
 * (authorization status and scopes, client status, anything about the user, a revoked token),
 * and this replica's listener drops what changed.
 *
 * Only while the listener is live (subscribed, and its own heartbeat heard back within the bound)
 * is anything served from here; otherwise every request reads the database as before, and the
 * cache starts empty when the listener comes back. A read that races a change to what it read is
 * not cached: every change is numbered and kept in a short log, and an entry whose read began
 * before a change that concerns it (or before the log's start) is dropped on arrival.
 */
export class GrantCache {
  private readonly entries = new Map<string, GrantEntry>();
  /** The user-token lookups, by application id and the user's name as looked up. */
  private readonly authorizations = new Map<string, AuthorizationEntry>();
  private readonly listener: ChangeListener;
  private readonly max: number;
  private readonly observe: (lookup: GrantLookup) => void;
  private seq = 0;
  private closing = false;
  private readonly log: Change[] = [];

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
        // Stopping the listener on shutdown is no outage worth a warning.
        if (this.closing) return;
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

  set(jti: string, entry: GrantEntry, sequence: number): void {
    // Changes since the read began: any that concerns this entry (or one the log no longer holds) wins.
    if (!this.live || this.changedSince(sequence, (change) => concerns(change, jti, entry))) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(jti, entry);
  }

  /**
   * The user-token endpoint's lookup, from memory: a newer authorization of the same client and
   * user (announced as `g:`), its revocation, the client's or any change to the user drops it.
   */
  activeAuthorization(applicationId: string, named: string): ActiveAuthorization | undefined {
    if (!this.live) return undefined;
    const key = `${applicationId}\n${named}`;
    const entry = this.authorizations.get(key);
    if (!entry || entry.expiresAt <= this.clock.now().getTime()) {
      if (entry) this.authorizations.delete(key);
      return undefined;
    }
    return entry.authorization;
  }

  setActiveAuthorization(applicationId: string, named: string, authorization: ActiveAuthorization, sequence: number): void {
    const entry = { authorization, applicationId, expiresAt: this.clock.now().getTime() + AUTHORIZATION_TTL_MS };
    if (!this.live || this.changedSince(sequence, (change) => concernsAuthorization(change, entry))) return;
    if (this.authorizations.size >= this.max) this.authorizations.delete(this.authorizations.keys().next().value!);
    this.authorizations.set(`${applicationId}\n${named}`, entry);
  }

  /** Whether a change that concerns an entry (or one the log no longer holds) came after `sequence`. */
  private changedSince(sequence: number, concern: (change: Change) => boolean): boolean {
    if (sequence === this.seq) return false;
    if ((this.log[0]?.seq ?? Number.POSITIVE_INFINITY) > sequence + 1) return true;
    return this.log.some((change) => change.seq > sequence && concern(change));
  }

  /** A change committed elsewhere, as its notification tells it (`<kind>:<id>`). */
  changed(payload: string): void {
    this.record(payload.slice(0, 1), payload.slice(2));
  }

  /**
   * A change this replica has just committed: dropped now, not when its notification comes back
   * (which, on a busy listener, may be after the caller's next request). Every write path that a
   * trigger announces calls this after its commit, so a replica always sees its own changes.
   */
  announce(kind: 'a' | 'c' | 'u' | 't', id: string): void {
    this.record(kind, id);
  }

  private flush(): void {
    this.record('*', '');
  }

  private record(kind: string, id: string): void {
    const change = { seq: ++this.seq, kind, id };
    this.log.push(change);
    if (this.log.length > LOG_SIZE) this.log.shift();
    if (kind === '*') {
      this.entries.clear();
      this.authorizations.clear();
      return;
    }
    for (const [key, entry] of this.authorizations) if (concernsAuthorization(change, entry)) this.authorizations.delete(key);
    if (kind === 't') {
      this.entries.delete(id);
      return;
    }
    for (const [jti, entry] of this.entries) if (concerns(change, jti, entry)) this.entries.delete(jti);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.listener.stop();
  }
}
