import { ChangeListener, type Db } from '@svc/db';
import type { Logger, Metrics } from '@svc/http';
import type { Clock } from '@svc/runtime';
import type { OutboundFetch } from '../clients/outbound-fetch.js';
import { webhookIdOf } from './endpoints.js';
import { DISABLE_AFTER_MS, retryDelayMs } from './schedule.js';
import { signatureHeader } from './signatures.js';
import type { WebhookSecrets } from './webhook-secrets.js';

export const WEBHOOK_CHANNEL = 'svc_webhooks';
/** A 2xx within this long is a success; anything else, or nothing, a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** An endpoint is one replica's for this long, renewed before every attempt; a replica that dies lets go by itself. */
const LEASE_MS = 60_000;
/** Endpoints one replica delivers to at once (each one delivery at a time), and deliveries per endpoint per turn. */
const ENDPOINTS_AT_ONCE = 8;
const DELIVERIES_PER_TURN = 25;
const POLL_MS = 1_000;

interface LeasedEndpoint {
  id: string;
  url: string;
  secret: unknown;
  previousSecret: unknown;
  previousSecretUntil: Date | null;
  leaseUntil: Date;
}

interface DueDelivery {
  id: string;
  attempts: number;
  eventId: string;
  type: string;
  data: unknown;
  occurredAt: Date;
}

export interface WebhookDelivererDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  secrets: WebhookSecrets;
  fetch: OutboundFetch;
  /** Refuse http endpoints at send time too (WEBHOOK_ALLOW_PRIVATE_TARGETS off). */
  httpsOnly: boolean;
  databaseUrl: string;
}

/**
 * Delivers the outbox. Every replica runs one; they share the work through PostgreSQL: an
 * endpoint with due deliveries is leased by one replica at a time (claimed with FOR UPDATE SKIP
 * LOCKED, held by a lease renewed before every attempt), which sends its deliveries one at a time,
 * oldest event first, so two replicas never send to one endpoint at once and the receiver sees
 * events in order as far as retries allow. A replica that dies mid-delivery leaves the delivery
 * pending and the lease to run out: another sends it again with the same webhook-id (at least once).
 * Woken by the outbox trigger's notification; polls every second besides, for retries that come due.
 */
export class WebhookDeliverer {
  private readonly listener: ChangeListener;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly outcomes;
  private readonly latency;

  constructor(private readonly deps: WebhookDelivererDeps) {
    this.listener = new ChangeListener({
      url: deps.databaseUrl,
      channel: WEBHOOK_CHANNEL,
      onChange: () => this.wake(),
      // Missing a notification costs at most the poll's second: no need for a fast heartbeat.
      heartbeatMs: 10_000,
      onLiveness: () => undefined,
      onError: (err) => deps.logger.warn({ err: err.message }, 'webhook listener'),
    });
    this.outcomes = deps.metrics.counter(
      'webhook_deliveries_total',
      'Webhook delivery attempts by outcome: succeeded, retry (failed, tried again later), failed (gave up)',
      ['outcome'],
    );
    this.latency = deps.metrics.histogram(
      'webhook_delivery_seconds',
      'Time from an event to its successful delivery',
      [],
      [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 3600],
    );
    deps.metrics.gauge('webhook_queue_age_seconds', 'How long the oldest due delivery has waited', async () => {
      const [row] = await deps.db.$queryRaw<{ oldest: Date | null }[]>`
        SELECT min("nextAttemptAt") AS oldest FROM "WebhookDelivery" WHERE status = 'pending' AND "nextAttemptAt" <= ${deps.clock.now()}`;
      return row?.oldest ? (deps.clock.now().getTime() - row.oldest.getTime()) / 1000 : 0;
    });
  }

  start(): this {
    this.listener.start();
    this.timer = setInterval(() => this.wake(), POLL_MS).unref();
    this.wake();
    return this;
  }

  /** Runs a turn now (or right after the one running). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.turns().finally(() => {
      this.running = undefined;
    });
  }

  /** Turns until one finds nothing to do. Answers when every delivery it began has ended (for tests). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    while (!this.stopped && (await this.turn()) > 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.listener.stop();
    await this.running;
  }

  private async turns(): Promise<void> {
    do {
      this.again = false;
      try {
        if ((await this.turn()) > 0) this.again = true;
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message }, 'webhook delivery turn failed');
        return;
      }
    } while (this.again && !this.stopped);
  }

  /** One turn: lease the endpoints with due deliveries, send to each. Answers how many attempts were made. */
  private async turn(): Promise<number> {
    const now = this.deps.clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS + Math.floor(Math.random() * 1000));
    const leased = await this.deps.db.$queryRaw<LeasedEndpoint[]>`
      UPDATE "WebhookEndpoint" e SET "leaseUntil" = ${leaseUntil}
      WHERE e.id IN (
        SELECT c.id FROM "WebhookEndpoint" c
        WHERE c.enabled AND (c."leaseUntil" IS NULL OR c."leaseUntil" < ${now})
          AND EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."endpointId" = c.id AND d.status = 'pending' AND d."nextAttemptAt" <= ${now})
        LIMIT ${ENDPOINTS_AT_ONCE} FOR UPDATE SKIP LOCKED)
      RETURNING e.id, e.url, e.secret, e."previousSecret", e."previousSecretUntil", e."leaseUntil"`;
    const counts = await Promise.all(leased.map((endpoint) => this.serve(endpoint)));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Sends an endpoint's due deliveries in event order, one at a time, while the lease is ours. */
  private async serve(endpoint: LeasedEndpoint): Promise<number> {
    let lease = endpoint.leaseUntil;
    let attempts = 0;
    try {
      const due = await this.deps.db.$queryRaw<DueDelivery[]>`
        SELECT d.id, d.attempts, d."eventId", v.type, v.data, v."occurredAt"
        FROM "WebhookDelivery" d JOIN "WebhookEvent" v ON v.id = d."eventId"
        WHERE d."endpointId" = ${endpoint.id}::uuid AND d.status = 'pending' AND d."nextAttemptAt" <= ${this.deps.clock.now()}
        ORDER BY d."eventOccurredAt", d."createdAt" LIMIT ${DELIVERIES_PER_TURN}`;
      for (const delivery of due) {
        if (this.stopped) break;
        const renewed = await this.renew(endpoint.id, lease);
        if (!renewed) break;
        lease = renewed;
        attempts++;
        const disabled = await this.attempt(endpoint, delivery);
        if (disabled) break;
      }
    } finally {
      await this.deps.db.$executeRaw`UPDATE "WebhookEndpoint" SET "leaseUntil" = NULL WHERE id = ${endpoint.id}::uuid AND "leaseUntil" = ${lease}`;
    }
    return attempts;
  }

  /** The lease moved forward, or undefined if it is no longer ours (it ran out and another replica took it). */
  private async renew(endpointId: string, lease: Date): Promise<Date | undefined> {
    const next = new Date(this.deps.clock.now().getTime() + LEASE_MS);
    const moved = await this.deps.db.$executeRaw`
      UPDATE "WebhookEndpoint" SET "leaseUntil" = ${next} WHERE id = ${endpointId}::uuid AND "leaseUntil" = ${lease} AND enabled`;
    return moved === 1 ? next : undefined;
  }

  /** One attempt, recorded; answers whether the endpoint was disabled by it. */
  private async attempt(endpoint: LeasedEndpoint, delivery: DueDelivery): Promise<boolean> {
    const started = this.deps.clock.now();
    const sent = await this.send(endpoint, delivery, started);
    const ms = Math.max(0, Date.now() - sent.startedMs);
    const attempts = delivery.attempts + 1;
    if (sent.ok) {
      await this.deps.db.$transaction([
        this.deps.db.webhookDelivery.update({
          where: { id: delivery.id },
          data: { status: 'succeeded', attempts, lastAttemptAt: started, lastResponseStatus: sent.status ?? null, lastResponseMs: ms, lastError: null },
        }),
        this.deps.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } }),
      ]);
      this.outcomes.inc({ outcome: 'succeeded' });
      this.latency.observe((this.deps.clock.now().getTime() - delivery.occurredAt.getTime()) / 1000);
      return false;
    }
    const wait = retryDelayMs(attempts);
    await this.deps.db.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        status: wait === undefined ? 'failed' : 'pending',
        attempts,
        lastAttemptAt: started,
        lastResponseStatus: sent.status ?? null,
        lastResponseMs: ms,
        lastError: sent.error,
        ...(wait === undefined ? {} : { nextAttemptAt: new Date(started.getTime() + wait) }),
      },
    });
    this.outcomes.inc({ outcome: wait === undefined ? 'failed' : 'retry' });
    // Failing since the first failure after the last success; five days of it disable the endpoint.
    const [row] = await this.deps.db.$queryRaw<{ failingSince: Date }[]>`
      UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", ${started}) WHERE id = ${endpoint.id}::uuid RETURNING "failingSince"`;
    if (!row || started.getTime() - row.failingSince.getTime() < DISABLE_AFTER_MS) return false;
    await this.deps.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false, disabledReason: 'failing' } });
    this.deps.logger.warn({ webhook_endpoint_id: endpoint.id }, 'webhook endpoint disabled after five days of failed deliveries');
    return true;
  }

  private async send(
    endpoint: LeasedEndpoint,
    delivery: DueDelivery,
    at: Date,
  ): Promise<{ ok: boolean; status?: number; error: string | null; startedMs: number }> {
    const body = JSON.stringify({ type: delivery.type, timestamp: delivery.occurredAt.toISOString(), data: delivery.data });
    const id = webhookIdOf(delivery.eventId);
    const timestamp = Math.floor(at.getTime() / 1000);
    const secrets = [this.deps.secrets.open(endpoint.id, endpoint.secret)];
    if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > at)
      secrets.push(this.deps.secrets.open(endpoint.id, endpoint.previousSecret));
    const startedMs = Date.now();
    if (this.deps.httpsOnly && !endpoint.url.startsWith('https:')) return { ok: false, error: 'refused: not an https URL', startedMs };
    try {
      const res = await this.deps.fetch(endpoint.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, id, timestamp, body),
        },
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      const ok = res.status >= 200 && res.status < 300;
      return {
        ok,
        status: res.status,
        error: ok ? null : `HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}`,
        startedMs,
      };
    } catch (err) {
      return { ok: false, error: describeFailure(err), startedMs };
    }
  }
}

/** What the delivery log says of a failure: the kind, never a stack. */
function describeFailure(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  if (e.name === 'InternalAddressError') return e.message ?? 'refused: a private or internal address';
  const code = e.code ?? e.cause?.code;
  return code ? `connection failed (${code})` : 'connection failed';
}

/** What a server process (or a test) needs from the app's deps to run a deliverer. */
export interface WebhookDeliveryDeps {
  webhookSecrets: WebhookSecrets;
  webhookFetch: OutboundFetch;
}

export function webhookDeliverer(
  deps: WebhookDeliveryDeps &
    Omit<WebhookDelivererDeps, 'secrets' | 'fetch' | 'httpsOnly' | 'databaseUrl'> & {
      config: { DATABASE_URL: string; WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean };
    },
) {
  return new WebhookDeliverer({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    secrets: deps.webhookSecrets,
    fetch: deps.webhookFetch,
    httpsOnly: !deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    databaseUrl: deps.config.DATABASE_URL,
  });
}
