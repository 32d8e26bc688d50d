import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Router, type Request } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { readAuthorization } from './authorization.js';
import { authChallenge } from './challenge.js';
import { UnauthorizedError } from './errors.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { routeTemplate } from './route-template.js';

/**
 * One service's Prometheus metrics, on a registry of its own (never prom-client's global one, so
 * several apps in one test process do not collide). Services add their own counters to it.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route'>;
  readonly rateLimited: Counter<'route'>;

  constructor(service: string, options: { processMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ service });
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.requests = this.counter('http_requests_total', 'HTTP requests answered, by route template and status', ['method', 'route', 'status']);
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route template',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.rateLimited = this.counter('rate_limit_rejections_total', 'Requests refused by a rate limit or sign-in throttle (429), by route template', ['route']);
  }

  counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, labelNames: L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** A gauge read when scraped: `read` answers its value then (NaN when it cannot be read). */
  gauge(name: string, help: string, read: () => Promise<number>): Gauge {
    return new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read().catch(() => Number.NaN));
      },
    });
  }

  /** Counts an answer under its route template (`/v2/presets/:preset_name`), never the raw path. */
  recorder(): (req: Request, res: ServerResponse, seconds: number) => void {
    // Label-bound children, one per (method, route, status): hashing labels on every request costs more than the rest.
    const counted = new Map<string, { inc(): void }>();
    const timed = new Map<string, { observe(v: number): void }>();
    return (req, res, seconds) => {
      const route = routeTemplate(req);
      const status = res.statusCode;
      const timing = `${req.method} ${route}`;
      const key = `${timing} ${status}`;
      let counter = counted.get(key);
      if (!counter) {
        counter = this.requests.labels(req.method, route, String(status));
        counted.set(key, counter);
      }
      counter.inc();
      let histogram = timed.get(timing);
      if (!histogram) {
        histogram = this.duration.labels(req.method, route);
        timed.set(timing, histogram);
      }
      histogram.observe(seconds);
      if (status === 429) this.rateLimited.inc({ route });
    };
  }
}

const digest = (v: string) => createHash('sha256').update(v).digest();

/**
 * GET /metrics in the Prometheus text format. With a token configured, only
 * `Authorization: Bearer <token>` may read it (compared in constant time).
 */
export function metricsRouter(metrics: Metrics, token?: string): Router {
  const expected = token ? digest(token) : undefined;
  const router = Router();
  router
    .route('/metrics')
    .get(async (req, res) => {
      if (expected) {
        const authorization = readAuthorization(req);
        const presented = (authorization?.scheme === 'Bearer' && authorization.token) || '';
        if (!timingSafeEqual(digest(presented), expected))
          throw new UnauthorizedError('The metrics token is required', 'unauthorized', { 'WWW-Authenticate': authChallenge('Bearer', { realm: 'metrics' }) });
      }
      res
        .set('Cache-Control', 'no-store')
        .type(metrics.registry.contentType)
        .send(await metrics.registry.metrics());
    })
    .all(methodNotAllowed);
  return router;
}
