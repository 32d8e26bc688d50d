import { HttpError, type Logger } from '@svc/http';
import { type Cache, type RateLimitDecision, type RateLimiter, StoreUnavailableError } from '@svc/kv';
import { sha256Hex } from '@svc/secrets';
import { rateLimited } from '../errors.js';

const UNIT_SECONDS = { second: 1, minute: 60, hour: 3600 } as const;
const FAILURE_WINDOW_SECONDS = 300;
// The client id is whatever the caller sent (any Unicode): hashed, so every key is plain ASCII.
const failureKey = (clientId: string | undefined, source: string) => `auth-fail:${sha256Hex(clientId ?? '')}:${source}`;

export interface LimitSettings {
  /** Requests per unit per client, counted once the client (or its grant) has proven itself. */
  perClient: number;
  unit: keyof typeof UNIT_SECONDS;
  /** Failed client authentications or grants per client and source address, per five minutes. */
  failuresPerSource: number;
  /** Authorization requests per client and source address, per minute. */
  authorizePerSource: number;
}

/**
 * Area A's limits, shared by every replica through the store. The advertised per-client budget
 * (svc-configuration's rate_limit_default) is charged only by requests that proved themselves:
 * a verified access token, an authenticated confidential client, or a public client's valid
 * grant. Failures are counted apart, per client and source address, so a stranger who knows a
 * public client_id can slow only their own address, never use up the client's budget. If Redis
 * is down the request goes through, logged: an identity provider that stops signing users in
 * over a rate counter does more harm than the burst it lets pass.
 */
export class RequestLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly cache: Cache,
    private readonly settings: LimitSettings,
    private readonly logger: Logger,
  ) {}

  /** Charges the client's budget; 429 past it. */
  async client(clientId: string): Promise<void> {
    const { perClient, unit } = this.settings;
    const decision = await this.consume(`client:${clientId}`, perClient, UNIT_SECONDS[unit]);
    if (decision && !decision.allowed) {
      throw rateLimited(decision.retryAfterSeconds, `This client is over ${perClient} requests per ${unit}`, {
        'X-RateLimit-Limit': String(perClient),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(decision.resetAt),
      });
    }
  }

  /** Every /oauth/authorize writes a pending row unauthenticated: bounded per client and source. */
  async authorize(clientId: string, source: string): Promise<void> {
    const decision = await this.consume(`authorize:${sha256Hex(clientId)}:${source}`, this.settings.authorizePerSource, 60);
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'Too many authorization requests for this client from this address');
  }

  /**
   * Runs an unauthenticated-until-proven request: refused up front when this source already failed
   * too often for this client; a 400/401 it ends with is counted against that source.
   */
  async guardFailures<T>(clientId: string | undefined, source: string, run: () => Promise<T>): Promise<T> {
    const failures = Number((await this.quietly(() => this.cache.get(failureKey(clientId, source)))) ?? 0);
    if (failures >= this.settings.failuresPerSource)
      throw rateLimited(FAILURE_WINDOW_SECONDS, 'Too many failed requests for this client from this address; wait and try again');
    try {
      return await run();
    } catch (err) {
      if (err instanceof HttpError && (err.status === 400 || err.status === 401)) await this.recordFailure(clientId, source);
      throw err;
    }
  }

  async recordFailure(clientId: string | undefined, source: string): Promise<void> {
    await this.quietly(() => this.cache.increment(failureKey(clientId, source), FAILURE_WINDOW_SECONDS));
  }

  private consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision | undefined> {
    return this.quietly(() => this.limiter.consume(key, { limit, windowSeconds }));
  }

  private async quietly<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      this.logger.warn({ err: err.message }, 'rate limit skipped: store unavailable');
      return undefined;
    }
  }
}
