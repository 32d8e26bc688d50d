import { ChangeListener, type Db, Prisma } from '@svc/db';
import type { Logger, Metrics, OutboundFetch } from '@svc/http';
import type { Clock } from '@svc/runtime';
import { webhookEvent } from '@svc/schemas';
import { recordWebhookEvent, webhookIdOf } from './events.js';
import { DISABLE_AFTER_MS, retryDelayMs } from './schedule.js';
import type { WebhookSecrets } from '@svc/signing-keys';
import { sign } from '@svc/webhook-signatures';

export const WEBHOOK_CHANNEL = 'svc_webhooks';
/** A 2xx within this long is a success; anything else, or nothing, a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/**
 * An endpoint is one replica's for this long (PostgreSQL's clock), renewed before every attempt
 * (which takes at most the 15 s timeout and a few writes); a replica that dies lets go by itself.
 */
const LEASE_SECONDS = 30;
/** Endpoints one replica delivers to at once (each one delivery at a time), and deliveries per endpoint per lease. */
const SLOTS = 8;
const DELIVERIES_PER_LEASE = 25;
/** Endpoints of one organization served at once, by all replicas together: one tenant's slow receivers cannot hold every slot. */
const PER_ORGANIZATION = 3;
const POLL_MS = 1_000;

/** An endpoint as leased (and as read again at every renewal, so a changed URL or secret counts at once). */
interface LeasedEndpoint {
  id: string;
  organizationId: string;
  url: string;
  secret: unknown;
  previousSecret: unknown;
  previousSecretUntil: Date | null;
  failingSince: Date | null;
  leaseUntil: Date;
}

/**
 * Whether delivery `d` (of event `v`) may go now: no earlier delivery of the same subject to the
 * same endpoint is still pending (a retry to come). Shared by the claim and the serve queries.
 */
const NOT_BEHIND = Prisma.sql`(v.subject IS NULL OR NOT EXISTS (
  SELECT 1 FROM "WebhookDelivery" p JOIN "WebhookEvent" w ON w.id = p."eventId"
  WHERE p."endpointId" = d."endpointId" AND p.status = 'pending' AND w.subject = v.subject
    AND (p."eventOccurredAt", p."createdAt", p.id) < (d."eventOccurredAt", d."createdAt", d.id)))`;

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
 * LOCKED, oldest due delivery first, at most three endpoints of one organization at once across
 * replicas, held by a lease renewed before every attempt), which sends its deliveries one at a
 * time, oldest event first, and lets go at the first failure, so a slow receiver holds one slot
 * for one timeout. Two replicas never send to one endpoint at once; the receiver sees events in
 * order as far as retries allow, and a subject's events (one authorization's) always in order.
 * A replica that dies mid-delivery leaves the delivery pending and its lease to run out: another
 * sends it again with the same webhook-id (at least once). Woken by the outbox trigger's
 * notification; polls every second besides, for retries that come due.
 */
export class WebhookDeliverer {
  private readonly listener: ChangeListener;
  private timer: NodeJS.Timeout | undefined;
  private readonly slots = new Set<Promise<void>>();
  private stopped = false;
  /** Attempts made by this deliverer so far. */
  private attempts = 0;
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
      const [row] = await deps.db.$queryRaw<{ seconds: number | null }[]>`
        SELECT EXTRACT(EPOCH FROM now() - min("nextAttemptAt"))::float8 AS seconds FROM "WebhookDelivery" WHERE status = 'pending' AND "nextAttemptAt" <= now()`;
      return Math.max(0, row?.seconds ?? 0);
    });
  }

  start(): this {
    this.listener.start();
    this.timer = setInterval(() => this.wake(), POLL_MS).unref();
    this.wake();
    return this;
  }

  /** Fills the free slots: each claims endpoints one after another until none is due. */
  wake(): void {
    while (!this.stopped && this.slots.size < SLOTS) {
      const slot: Promise<void> = this.slot().finally(() => this.slots.delete(slot));
      this.slots.add(slot);
    }
  }

  /** Until a round of every slot makes no attempt: what is due now has been tried (for tests). */
  async drain(): Promise<void> {
    let before: number;
    do {
      before = this.attempts;
      this.wake();
      await Promise.all(this.slots);
    } while (!this.stopped && this.attempts > before);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.listener.stop();
    await Promise.all(this.slots);
  }

  private async slot(): Promise<void> {
    while (!this.stopped) {
      let endpoint: LeasedEndpoint | undefined;
      try {
        endpoint = await this.claim();
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message }, 'webhook deliverer could not claim an endpoint');
        return;
      }
      if (!endpoint) return;
      try {
        // Claimed but nothing sent (its due deliveries went meanwhile): let the next wake look again.
        if ((await this.serve(endpoint)) === 0) return;
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message, webhook_endpoint_id: endpoint.id }, 'webhook delivery failed to record');
      } finally {
        await this.deps.db
          .$executeRaw`UPDATE "WebhookEndpoint" SET "leaseUntil" = NULL WHERE id = ${endpoint.id}::uuid AND "leaseUntil" = ${endpoint.leaseUntil}`.catch(
          () => undefined,
        );
      }
    }
  }

  /** The endpoint whose oldest due delivery has waited longest, leased to this replica; undefined if none is due. */
  private async claim(): Promise<LeasedEndpoint | undefined> {
    const [leased] = await this.deps.db.$queryRaw<LeasedEndpoint[]>`
      UPDATE "WebhookEndpoint" e SET "leaseUntil" = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE e.id = (
        SELECT c.id FROM "WebhookEndpoint" c
        JOIN LATERAL (
          SELECT min(d."nextAttemptAt") AS due FROM "WebhookDelivery" d JOIN "WebhookEvent" v ON v.id = d."eventId"
          WHERE d."endpointId" = c.id AND d.status = 'pending' AND d."nextAttemptAt" <= now() AND ${NOT_BEHIND}
        ) oldest ON oldest.due IS NOT NULL
        WHERE c.enabled AND (c."leaseUntil" IS NULL OR c."leaseUntil" < now())
          AND (SELECT count(*) FROM "WebhookEndpoint" o
               WHERE o."organizationId" = c."organizationId" AND o."leaseUntil" >= now()) < ${PER_ORGANIZATION}
        ORDER BY oldest.due
        LIMIT 1 FOR UPDATE OF c SKIP LOCKED)
      RETURNING e.id, e."organizationId", e.url, e.secret, e."previousSecret", e."previousSecretUntil", e."failingSince", e."leaseUntil"`;
    return leased;
  }

  /** Sends an endpoint's due deliveries in event order, one at a time, while the lease is ours; stops at the first failure. */
  private async serve(endpoint: LeasedEndpoint): Promise<number> {
    // A later event of a subject waits while an earlier one of it is pending here (a retry to come).
    const due = await this.deps.db.$queryRaw<DueDelivery[]>`
      SELECT d.id, d.attempts, d."eventId", v.type, v.data, v."occurredAt"
      FROM "WebhookDelivery" d JOIN "WebhookEvent" v ON v.id = d."eventId"
      WHERE d."endpointId" = ${endpoint.id}::uuid AND d.status = 'pending' AND d."nextAttemptAt" <= now() AND ${NOT_BEHIND}
      ORDER BY d."eventOccurredAt", d."createdAt", d.id LIMIT ${DELIVERIES_PER_LEASE}`;
    let sent = 0;
    for (const delivery of due) {
      if (this.stopped || !(await this.renew(endpoint))) break;
      sent++;
      if (!(await this.attempt(endpoint, delivery))) break;
    }
    return sent;
  }

  /** Moves the lease on and reads the endpoint again; false if it is no longer ours (it ran out, or the endpoint went). */
  private async renew(endpoint: LeasedEndpoint): Promise<boolean> {
    const [fresh] = await this.deps.db.$queryRaw<LeasedEndpoint[]>`
      UPDATE "WebhookEndpoint" SET "leaseUntil" = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id = ${endpoint.id}::uuid AND "leaseUntil" = ${endpoint.leaseUntil} AND enabled
      RETURNING id, "organizationId", url, secret, "previousSecret", "previousSecretUntil", "failingSince", "leaseUntil"`;
    if (fresh) Object.assign(endpoint, fresh);
    return fresh !== undefined;
  }

  /** One attempt, recorded; answers whether it succeeded. */
  private async attempt(endpoint: LeasedEndpoint, delivery: DueDelivery): Promise<boolean> {
    const started = this.deps.clock.now();
    this.attempts++;
    const sent = await this.send(endpoint, delivery, started);
    const attempts = delivery.attempts + 1;
    const record = { attempts, lastAttemptAt: started, lastResponseStatus: sent.status ?? null, lastResponseMs: sent.ms };
    if (sent.ok) {
      await this.deps.db.webhookDelivery.updateMany({ where: { id: delivery.id }, data: { ...record, status: 'succeeded', lastError: null } });
      // A success ends a run of failures (the five days start again at the next failure).
      if (endpoint.failingSince) await this.deps.db.webhookEndpoint.updateMany({ where: { id: endpoint.id }, data: { failingSince: null } });
      this.outcomes.inc({ outcome: 'succeeded' });
      this.latency.observe((this.deps.clock.now().getTime() - delivery.occurredAt.getTime()) / 1000);
      return true;
    }
    const wait = retryDelayMs(attempts);
    await this.deps.db.webhookDelivery.updateMany({
      where: { id: delivery.id },
      data: {
        ...record,
        status: wait === undefined ? 'failed' : 'pending',
        lastError: sent.error,
        ...(wait === undefined ? {} : { nextAttemptAt: new Date(started.getTime() + wait) }),
      },
    });
    this.outcomes.inc({ outcome: wait === undefined ? 'failed' : 'retry' });
    // Failing since the first failure after the last success; five days of it disable the endpoint.
    const [row] = await this.deps.db.$queryRaw<{ failingSince: Date }[]>`
      UPDATE "WebhookEndpoint" SET "failingSince" = COALESCE("failingSince", ${started}) WHERE id = ${endpoint.id}::uuid RETURNING "failingSince"`;
    if (row && started.getTime() - row.failingSince.getTime() >= DISABLE_AFTER_MS) await this.disable(endpoint, row.failingSince, started);
    return false;
  }

  /**
   * Five days of failures: the endpoint is disabled, and the organization's other endpoints that
   * asked for it hear so (webhook.endpoint_disabled) in the same transaction; the developer enables
   * it again once the receiver is fixed.
   */
  private async disable(endpoint: LeasedEndpoint, failingSince: Date, at: Date): Promise<void> {
    await this.deps.db.$transaction(async (tx) => {
      const moved = await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, enabled: true }, data: { enabled: false, disabledReason: 'failing' } });
      if (moved.count === 0) return;
      await recordWebhookEvent(tx, {
        organizationId: endpoint.organizationId,
        event: webhookEvent('webhook.endpoint_disabled', { webhook_endpoint_id: endpoint.id, failing_since: failingSince.toISOString() }),
        occurredAt: at,
      });
    });
    this.deps.logger.warn({ webhook_endpoint_id: endpoint.id }, 'webhook endpoint disabled after five days of failed deliveries');
  }

  private async send(endpoint: LeasedEndpoint, delivery: DueDelivery, at: Date): Promise<{ ok: boolean; status?: number; error: string | null; ms: number }> {
    const startedMs = Date.now();
    const failed = (error: string) => ({ ok: false, error, ms: Date.now() - startedMs });
    if (this.deps.httpsOnly && new URL(endpoint.url).protocol !== 'https:') return failed('refused: not an https URL');
    const body = JSON.stringify({ type: delivery.type, timestamp: delivery.occurredAt.toISOString(), data: delivery.data });
    const id = webhookIdOf(delivery.eventId);
    const timestamp = Math.floor(at.getTime() / 1000);
    try {
      const secrets = [this.deps.secrets.open(endpoint.id, endpoint.secret)];
      if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > at)
        secrets.push(this.deps.secrets.open(endpoint.id, endpoint.previousSecret));
      const res = await this.deps.fetch(endpoint.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(secrets, { id, timestamp, body }),
        },
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      const ms = Date.now() - startedMs;
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, error: null, ms };
      return { ok: false, status: res.status, error: `HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}`, ms };
    } catch (err) {
      return failed(describeFailure(err));
    }
  }
}

/**
 * What the delivery log says of a failure: the kind, never a stack, and never an internal address
 * (the log is the endpoint owner's, who must learn nothing of the network behind us).
 */
function describeFailure(err: unknown): string {
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  if (e.name === 'InternalAddressError') return 'refused: the host is at a private or internal address';
  const code = e.code ?? e.cause?.code;
  return code && /^[A-Z_]{3,30}$/.test(code) ? `connection failed (${code})` : 'connection failed';
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
