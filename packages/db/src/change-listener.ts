import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface ChangeListenerOptions {
  url: string;
  channel: string;
  /** A change someone else committed: the payload its trigger sent. */
  onChange(payload: string): void;
  /**
   * The listener went live (subscribed, and its own heartbeat came back through PostgreSQL) or
   * stopped being so. Either way, what was learned from it before may be incomplete.
   */
  onLiveness(live: boolean): void;
  onError?(err: Error): void;
  /** How often a heartbeat is sent through the channel. */
  heartbeatMs?: number;
  /** How long without hearing its own heartbeat before the listener counts as dead. */
  deadAfterMs?: number;
}

/**
 * LISTEN on one dedicated connection. Liveness is proven end to end: every `heartbeatMs` the
 * listener sends `pg_notify(channel, 'hb:<its id>')` and must hear it back within `deadAfterMs`;
 * a closed connection, an error or a silent one marks it dead at once, and it reconnects with
 * backoff. Notifications are delivered after their transaction commits, in commit order.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private readonly id = randomUUID();
  /** The connection's application_name, so operators (and tests) can find it in pg_stat_activity. */
  readonly name = `svc-listener-${this.id.slice(0, 8)}`;
  private lastHeard = 0;
  private live = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private backoffMs = 200;

  constructor(private readonly options: ChangeListenerOptions) {}

  get isLive(): boolean {
    return this.live;
  }

  private get heartbeatMs() {
    return this.options.heartbeatMs ?? 1_000;
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url, connectionTimeoutMillis: 3_000, application_name: this.name });
    this.client = client;
    client.on('error', (err) => this.down(err));
    client.on('end', () => this.down(new Error('listener connection closed')));
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (payload === `hb:${this.id}`) return this.heard();
      if (!payload.startsWith('hb:')) this.options.onChange(payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.options.channel)}`);
      if (client !== this.client || this.stopped) return;
      this.backoffMs = 200;
      this.lastHeard = Date.now();
      this.beat();
      this.timer = setInterval(() => this.beat(), this.heartbeatMs).unref();
    } catch (err) {
      this.down(err as Error);
    }
  }

  private heard(): void {
    this.lastHeard = Date.now();
    if (!this.live) {
      this.live = true;
      this.options.onLiveness(true);
    }
  }

  private beat(): void {
    if (Date.now() - this.lastHeard > (this.options.deadAfterMs ?? 3 * this.heartbeatMs)) {
      this.down(new Error('listener heartbeat not heard back'));
      return;
    }
    this.client?.query('SELECT pg_notify($1, $2)', [this.options.channel, `hb:${this.id}`]).catch((err: Error) => this.down(err));
  }

  private down(err: Error): void {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    clearInterval(this.timer);
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.live) {
      this.live = false;
      this.options.onLiveness(false);
    }
    if (this.stopped) return;
    this.options.onError?.(err);
    this.retry = setTimeout(() => void this.connect(), this.backoffMs).unref();
    this.backoffMs = Math.min(this.backoffMs * 2, 5_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.timer);
    const client = this.client;
    this.client = undefined;
    if (this.live) {
      this.live = false;
      this.options.onLiveness(false);
    }
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
  }
}
