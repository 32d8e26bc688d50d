import type { BackoffDecision, BackoffPolicy, RateLimitDecision, RateLimitPolicy } from './types.js';

export interface LimitState {
  windowStart: number;
  count: number;
  /** GCRA theoretical arrival time, in ms. */
  tat: number;
}

/**
 * The algorithm both stores run (the Redis one in Lua, see redis-store.ts): a fixed window
 * aligned to multiples of its length, and a GCRA burst limit. A hit is charged to neither when
 * either refuses it, so a client that backs off is never locked out by its refused attempts.
 */
export function decide(state: LimitState | undefined, now: number, policy: RateLimitPolicy): { decision: RateLimitDecision; next?: LimitState } {
  const windowMs = policy.windowSeconds * 1000;
  const windowStart = now - (now % windowMs);
  const reset = windowStart + windowMs;
  const count = state && state.windowStart === windowStart ? state.count : 0;
  const base = { limit: policy.limit, resetAt: Math.ceil(reset / 1000) };

  let newTat = 0;
  let burstWait = 0;
  if (policy.burst) {
    const interval = (policy.burst.perSeconds * 1000) / policy.burst.limit;
    const tat = Math.max(state?.tat ?? 0, now);
    newTat = tat + interval;
    burstWait = Math.max(0, newTat - policy.burst.limit * interval - now);
  }
  if (count >= policy.limit) {
    return { decision: { ...base, allowed: false, remaining: 0, retryAfterSeconds: seconds(reset - now), refusedBy: 'window' } };
  }
  if (burstWait > 0) {
    return { decision: { ...base, allowed: false, remaining: policy.limit - count, retryAfterSeconds: seconds(burstWait), refusedBy: 'burst' } };
  }
  return {
    decision: { ...base, allowed: true, remaining: policy.limit - count - 1, retryAfterSeconds: 0 },
    next: { windowStart, count: count + 1, tat: newTat },
  };
}

export interface BackoffState {
  attempts: number;
  /** When the latest counted attempt was made, in ms. */
  last: number;
}

/** The wait (s) that `attempts` attempts earn: none for the free ones, then 1 s doubling up to the ceiling. */
export function backoffDelay(attempts: number, policy: Pick<BackoffPolicy, 'free' | 'maxDelaySeconds'>): number {
  return attempts <= policy.free ? 0 : Math.min(2 ** (attempts - policy.free - 1), policy.maxDelaySeconds);
}

/**
 * Backoff, run by both stores (the Redis one in Lua): an attempt before the latest one's earned
 * wait is over is refused and not counted; any other is counted at once.
 */
export function attempt(state: BackoffState | undefined, now: number, policy: BackoffPolicy): { decision: BackoffDecision; next?: BackoffState } {
  const attempts = state?.attempts ?? 0;
  const readyAt = (state?.last ?? 0) + backoffDelay(attempts, policy) * 1000;
  if (now < readyAt) return { decision: { allowed: false, attempts, retryAfterSeconds: seconds(readyAt - now) } };
  return { decision: { allowed: true, attempts: attempts + 1, retryAfterSeconds: 0 }, next: { attempts: attempts + 1, last: now } };
}

/** Retry-After is whole seconds, never 0 for a refusal. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
