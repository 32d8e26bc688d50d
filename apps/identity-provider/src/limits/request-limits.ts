import { HttpError, limitSource, type Logger } from '@svc/http';
import { backoffDelay, type RateLimitDecision, type RateLimiter, StoreUnavailableError } from '@svc/kv';
import type { Clock } from '@svc/runtime';
import { sha256Hex } from '@svc/secrets';
import { rateLimited } from '../errors.js';
import { SourceWaits } from './source-waits.js';

const UNIT_SECONDS = { second: 1, minute: 60, hour: 3600 } as const;
const FAILURE_WINDOW_SECONDS = 300;
const TEST_DATA_PER_ORGANIZATION_PER_HOUR = 600;
const SIGNUP_MAILS_PER_ADDRESS_PER_HOUR = 5;
const WEBHOOK_TESTS_PER_ORGANIZATION_PER_HOUR = 1_200;
// A reset link is mailed to the account's own address: a handful an hour is all its owner needs,
// and all a stranger can make them receive.
const PASSWORD_RESET_MAILS_PER_ADDRESS_PER_HOUR = 3;
const PASSWORD_RESETS_PER_SOURCE_PER_HOUR = 20;
/** Passkey challenges per source address per minute: each is kept five minutes, unauthenticated (a person needs one a sign-in). */
export const PASSKEY_CHALLENGES_PER_SOURCE_PER_MINUTE = 120;
// The client id is whatever the caller sent (any Unicode): hashed, so every key is plain ASCII.
const tooManyFailures = (retryAfterSeconds: number) =>
  rateLimited(retryAfterSeconds, 'Too many failed requests for this client from this address; wait and try again');
const failureKey = (clientId: string | undefined, source: string) => `auth-fail:${sha256Hex(clientId ?? '')}:${limitSource(source)}`;
// An end user's share lives under its client budget's hash tag, so the two stay in one Redis Cluster slot.
type Budget = 'client' | 'client-token' | 'client-introspection' | 'client-approvals';
const budgetKey = (budget: Budget, clientId: string) => `${budget}:${clientId}`;
const shareKey = (budget: Budget, clientId: string, holder: string) => `{${budgetKey(budget, clientId)}}:user:${sha256Hex(holder)}`;
const sourceKey = (budget: Budget, clientId: string, source: string) => `{${budgetKey(budget, clientId)}}:source:${limitSource(source)}`;

export interface LimitSettings {
  /** Requests per unit per client, counted once the client (or its grant) has proven itself. */
  perClient: number;
  /** Each grant's share of `perClient` (resource reads, and a public client's token requests). */
  perGrant: number;
  /** Each source address's share of a public client's `perClient`, whatever number of users it signs in. */
  perSource: number;
  unit: keyof typeof UNIT_SECONDS;
  /** Failed client authentications or grants per client and source address, per five minutes. */
  failuresPerSource: number;
  /** Authorization requests per client and source address, per minute. */
  authorizePerSource: number;
  /** Developer sign-ups per source address, per hour. */
  signupsPerSource: number;
}

/**
 * The identity provider's limits, shared by every replica through the store. The advertised per-client budget
 * (svc-configuration's rate_limit_default) is charged only by requests that proved themselves:
 * a verified access token, an authenticated confidential client, or a public client's valid
 * grant. Within it each end user has one share (rate_limit_per_grant), however many grants of the
 * client they hold (keyed by the user, not the authorization: four approvals are not four shares),
 * charged together with the budget in one atomic step, so one end user of a public client cannot
 * starve the others. A public client's requests come from its users' devices, and accounts are
 * cheaper than addresses: each source address (an IPv6 source by its /64) has a share of its budget
 * too (rate_limit_per_source), so many accounts on one address take no more than one address's
 * share. Token requests have a budget of their own, so resource reads never stop renewal.
 * Failures are counted apart, per client and source address (an IPv6 source by its /64), so a
 * stranger who knows a public client_id can slow only their own address, never use up the
 * client's budget. If Redis is down the request goes through, logged: an identity provider that
 * stops signing users in over a rate counter does more harm than the burst it lets pass.
 */
export class RequestLimits {
  private readonly waiting: SourceWaits;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly settings: LimitSettings,
    private readonly logger: Logger,
    clock: Clock,
  ) {
    this.waiting = new SourceWaits(clock);
  }

  /** Charges the client's budget (a confidential client's own requests); 429 past it. */
  async client(clientId: string): Promise<void> {
    await this.charge('client', clientId);
  }

  /**
   * A resource read with an access token: charged to its end user's share of the client's budget
   * (`subject`: the token's sub, one per user and organization) and to the budget itself, both or
   * neither, so one end user's flood stops at their share and costs the client nothing beyond it.
   */
  async grant(clientId: string, subject: string, publicSource?: string): Promise<void> {
    await this.charge('client', clientId, subject, publicSource);
  }

  /**
   * A token request (code exchange, refresh, a confidential client's user token): a budget of its
   * own, as large as the client's, that resource reads cannot use up, so users can always renew.
   * A public client's request is charged to its end user's share of it as well (`holder`: the
   * user the grant belongs to), and to its source address's share (`publicSource`).
   */
  async tokens(clientId: string, holder?: string, publicSource?: string): Promise<void> {
    await this.charge('client-token', clientId, holder, publicSource);
  }

  /**
   * A resource server's introspection request: a budget of its own, as large as the client's, so
   * that checking tokens neither stops renewal nor uses up the client's reads.
   */
  async introspection(clientId: string): Promise<void> {
    await this.charge('client-introspection', clientId);
  }

  /**
   * The credential issuer's reconciliation (POST /oauth/wallet-approvals): a budget of its own, as
   * large as the client's. A sweep over many live credentials asks page after page; on the
   * introspection budget it would use up what the issuer needs to check wallets' tokens, and
   * wallets would be refused their credentials while it ran.
   */
  async walletApprovals(clientId: string): Promise<void> {
    await this.charge('client-approvals', clientId);
  }

  /** Every /oauth/authorize writes a pending row unauthenticated: bounded per client and source. */
  async authorize(clientId: string, source: string): Promise<void> {
    const decision = await this.consume(`authorize:${sha256Hex(clientId)}:${limitSource(source)}`, this.settings.authorizePerSource, 60);
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'Too many authorization requests for this client from this address');
  }

  /** Developer sign-ups per source address per hour: an account per request is cheap to ask for and costs scrypt. */
  async signUp(source: string): Promise<void> {
    const decision = await this.consume(`signup:${limitSource(source)}`, this.settings.signupsPerSource, 3600);
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'Too many sign-ups from this address; try again later');
  }

  /**
   * Sign-up mails to one address per hour, whoever asks: nobody's mailbox fills with sign-ups made
   * in their name. False past it: the caller answers as always and sends nothing.
   */
  async signupMail(email: string): Promise<boolean> {
    const decision = await this.consume(`signup-mail:${sha256Hex(email)}`, SIGNUP_MAILS_PER_ADDRESS_PER_HOUR, 3600);
    return !decision || decision.allowed;
  }

  /** Passkey challenges (sign-in or registration) per source address per minute. */
  async passkeyChallenges(source: string): Promise<void> {
    const decision = await this.consume(`passkey-challenges:${limitSource(source)}`, PASSKEY_CHALLENGES_PER_SOURCE_PER_MINUTE, 60);
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'Too many passkey challenges from this address; try again shortly');
  }

  /**
   * Password-reset requests per source address per hour, whatever addresses they name: one
   * machine cannot mail many people, nor probe many addresses. 429 past it, the same for every address.
   */
  async passwordResetRequest(source: string): Promise<void> {
    const decision = await this.consume(`pwreset:${limitSource(source)}`, PASSWORD_RESETS_PER_SOURCE_PER_HOUR, 3600);
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'Too many password-reset requests from this address; try again later');
  }

  /**
   * Reset mails to one address per hour, whoever asks (many sources included): nobody's mailbox
   * fills with links. False past it: the caller answers as always and sends nothing.
   */
  async passwordResetMail(email: string): Promise<boolean> {
    const decision = await this.consume(`pwreset-mail:${sha256Hex(email)}`, PASSWORD_RESET_MAILS_PER_ADDRESS_PER_HOUR, 3600);
    return !decision || decision.allowed;
  }

  /** Test users and authorizations an organization makes per hour in the sandbox: each costs a password hash or a signature. */
  async testData(organizationId: string): Promise<void> {
    const decision = await this.consume(`test-data:${organizationId}`, TEST_DATA_PER_ORGANIZATION_PER_HOUR, 3600);
    if (decision && !decision.allowed)
      throw rateLimited(decision.retryAfterSeconds, 'Too many test users or authorizations made by this organization this hour');
  }

  /** Test events an organization sends per hour: each is a delivery its endpoints must take. */
  async webhookTests(organizationId: string): Promise<void> {
    const decision = await this.consume(`webhook-tests:${organizationId}`, WEBHOOK_TESTS_PER_ORGANIZATION_PER_HOUR, 3600);
    if (decision && !decision.allowed) throw rateLimited(decision.retryAfterSeconds, 'Too many test events sent by this organization this hour');
  }

  /**
   * Runs an unauthenticated-until-proven request and counts it only if it fails (a 400 or 401):
   * a client's own requests cost nothing here, however many it sends at once from one address.
   * Each failure is counted in one atomic step, so parallel guesses cannot all pass one check:
   * past `failuresPerSource` each further failure earns a wait (1 s, doubling, at most the
   * five-minute window), and one that comes during the wait is answered 429, not 401, and not
   * counted. A replica that has seen a source earn its wait refuses that source's requests to the
   * client before any work until the wait is over, right or wrong (`waiting`); another replica
   * checks them, which gains a guesser nothing against secrets of 256 bits.
   */
  async guardFailures<T>(clientId: string | undefined, source: string, run: () => Promise<T>): Promise<T> {
    const key = failureKey(clientId, source);
    const waitLeft = this.waiting.left(key);
    if (waitLeft > 0) throw tooManyFailures(waitLeft);
    return this.countingFailures(() => key, run);
  }

  /**
   * The rest of a request whose client guardFailures has let through (the token endpoint's grant,
   * after requireClient): a failure (a 400 or 401) counts against the same client and source as a
   * failed authentication, and one during a wait is answered 429. The wait was checked once, before
   * the client authenticated; it is not checked again.
   */
  async countFailures<T>(clientId: string | undefined, source: string, run: () => Promise<T>): Promise<T> {
    // The key (a hash) only when there is a failure to count: most requests have none.
    return this.countingFailures(() => failureKey(clientId, source), run);
  }

  private async countingFailures<T>(keyOf: () => string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof HttpError && (err.status === 400 || err.status === 401))) throw err;
      const refusedFor = await this.countFailure(keyOf());
      throw refusedFor ? tooManyFailures(refusedFor) : err;
    }
  }

  /** Counts a failure found after the request was let through (a public client's revocation that named nothing of its own). */
  async recordFailure(clientId: string | undefined, source: string): Promise<void> {
    await this.countFailure(failureKey(clientId, source));
  }

  /**
   * One failure counted, and this replica remembers any wait it earned. If it came during the
   * source's wait it is not counted, and the seconds left are returned: the caller answers 429.
   */
  private async countFailure(key: string): Promise<number | undefined> {
    const policy = this.failurePolicy();
    const counted = await this.quietly(() => this.limiter.attempt(key, policy));
    if (!counted) return undefined;
    const waitSeconds = counted.allowed ? backoffDelay(counted.attempts, policy) : counted.retryAfterSeconds;
    if (waitSeconds > 0) this.waiting.hold(key, waitSeconds);
    return counted.allowed ? undefined : counted.retryAfterSeconds;
  }

  // The limit-th failure already earns a wait, so a source gets `failuresPerSource` tries before its first 429.
  private failurePolicy() {
    return { free: this.settings.failuresPerSource - 1, maxDelaySeconds: FAILURE_WINDOW_SECONDS, memorySeconds: FAILURE_WINDOW_SECONDS };
  }

  /**
   * One atomic step (one round trip) for the shares and the budget, all or nothing; the first
   * refusal is reported: the user's share, then the source's, then the client's budget.
   */
  private async charge(budget: Budget, clientId: string, holder?: string, publicSource?: string): Promise<void> {
    const { perClient, perGrant, perSource, unit } = this.settings;
    const windowSeconds = UNIT_SECONDS[unit];
    const hits = [
      ...(holder ? [{ key: shareKey(budget, clientId, holder), policy: { limit: perGrant, windowSeconds }, who: 'This user is' }] : []),
      ...(publicSource ? [{ key: sourceKey(budget, clientId, publicSource), policy: { limit: perSource, windowSeconds }, who: 'This address is' }] : []),
      { key: budgetKey(budget, clientId), policy: { limit: perClient, windowSeconds }, who: 'This client is' },
    ];
    const decisions = await this.quietly(() => this.limiter.consumeAll(hits));
    const at = decisions?.findIndex((d) => !d.allowed) ?? -1;
    if (at < 0) return;
    const refused = decisions![at]!;
    const what = hits[at]!.who;
    const kind = {
      client: 'requests',
      'client-token': 'token requests',
      'client-introspection': 'introspection requests',
      'client-approvals': 'approval queries',
    }[budget];
    throw rateLimited(refused.retryAfterSeconds, `${what} over ${refused.limit} ${kind} per ${unit}`, {
      'X-RateLimit-Limit': String(refused.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(refused.resetAt),
    });
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
