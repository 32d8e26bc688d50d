import { isDatabaseUnavailable, isRecoveryConflict, type Db } from '@svc/db';
import type { Logger } from '@svc/http';
import type { Cache } from '@svc/kv';

/** After the replica failed to answer, reads skip it this long rather than each waiting for its connect timeout. */
const REPLICA_BACKOFF_MS = 5_000;

export interface ReplicaReadsOptions {
  primary: Db;
  /** The replica's client; undefined (DATABASE_READ_URL unset): every read on the primary. */
  replica: Db | undefined;
  /** The shared store's cache, so every service replica sees an organization's recent write. */
  cache: Cache;
  /** DATABASE_READ_AFTER_WRITE_SECONDS. */
  afterWriteSeconds: number;
  logger: Logger;
  now?: () => number;
}

/**
 * Where a lag-tolerant read (a list) goes: the streaming replica, unless the organization wrote
 * within the read-after-write window (then the primary, so a caller sees its own write), or the
 * replica is unreachable (then the primary too: a replica outage costs load, never an answer).
 */
export class ReplicaReads {
  private replicaDownUntil = 0;
  private readonly now: () => number;

  constructor(private readonly options: ReplicaReadsOptions) {
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.options.replica !== undefined;
  }

  /**
   * Records that `organizationId` is writing: called before the write, so no read of its can
   * slip in between the commit and the record. A store that fails here is only logged: reads
   * during a store outage go to the primary anyway.
   */
  async wrote(organizationId: string): Promise<void> {
    if (!this.enabled) return;
    await this.options.cache.set(keyOf(organizationId), '1', this.options.afterWriteSeconds).catch((err: unknown) => {
      this.options.logger.warn({ err: (err as Error).message }, 'read-after-write not recorded');
    });
  }

  /** Where `organizationId`'s lag-tolerant read goes now. */
  async target(organizationId: string): Promise<'primary' | 'replica'> {
    if (!this.enabled || this.now() < this.replicaDownUntil) return 'primary';
    try {
      return (await this.options.cache.get(keyOf(organizationId))) === null ? 'replica' : 'primary';
    } catch {
      // Whether it wrote is unknown: the primary is always right.
      return 'primary';
    }
  }

  /** Runs `query` where `target` says; on the primary after all when the replica cannot be reached. */
  async read<T>(organizationId: string, query: (db: Db) => Promise<T>): Promise<T> {
    const { primary, replica } = this.options;
    if (!replica || (await this.target(organizationId)) === 'primary') return query(primary);
    try {
      return await query(replica);
    } catch (err) {
      // A read the replica cancelled to go on replaying: the primary answers this one; the replica
      // is healthy, so the next read tries it again.
      if (isRecoveryConflict(err)) {
        this.options.logger.warn({ err: (err as Error).message }, 'read replica cancelled a read for recovery: reading from the primary');
        return query(primary);
      }
      if (!isDatabaseUnavailable(err)) throw err;
      this.replicaDownUntil = this.now() + REPLICA_BACKOFF_MS;
      this.options.logger.warn({ err: (err as Error).message }, 'read replica unreachable: reading from the primary');
      return query(primary);
    }
  }
}

// One key per organization; the store's namespace keeps services and environments apart.
const keyOf = (organizationId: string) => `read-after-write:${organizationId}`;
