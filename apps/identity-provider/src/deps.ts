import { TimestampBatch } from '@svc/db';
import { dependencyCheck, type Metrics, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { type Clock, coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import { KeyEncryption } from '@svc/signing-keys';
import type { Config } from './config.js';
import { SigningKeys } from './services/signing-keys.js';
import type { TokenContext } from './services/tokens.js';
import { purgeExpired as purgeExpiredRows } from './services/authorizations.js';
import { ClientAssertions } from './services/client-assertions.js';
import { DpopProofs } from './services/dpop.js';
import { RequestLimits } from './services/request-limits.js';
import { PresetCache } from './services/preset-cache.js';
import { Clients } from './services/clients.js';
import { VerifiedTokens } from './services/access-tokens.js';
import { GrantCache } from './services/grant-cache.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
  signingKeys: SigningKeys;
  tokens: TokenContext;
  limits: RequestLimits;
  assertions: ClientAssertions;
  dpop: DpopProofs;
  /** Deletes expired pending authorizations and revoked-token records (also run every minute). */
  purgeExpired: () => Promise<number>;
  presetCache: PresetCache;
  clients: Clients;
  /** last_token_issued_at of client user-tokens, written once a second for all authorizations. */
  tokenStamps: TimestampBatch;
  counters: ReturnType<typeof idpCounters>;
}

/** The identity provider's own metrics, beside the request counters every service has. */
function idpCounters(metrics: Metrics) {
  return {
    tokensIssued: metrics.counter('tokens_issued_total', 'Access tokens issued, by grant', ['grant']),
    tokensRevoked: metrics.counter('tokens_revoked_total', 'Tokens and authorizations revoked through /oauth/revoke, by subject', ['subject']),
    presetCache: metrics.counter('preset_cache_lookups_total', 'Preset cache lookups by outcome: hit ratio = hit / all', ['outcome']),
    grantCache: metrics.counter('grant_cache_lookups_total', 'Bearer grant lookups: hit, miss (read the database), bypass (listener not live)', ['outcome']),
  };
}

const HOUSEKEEPING_MS = 60_000;

export function buildDeps(config: Config, testClock?: Clock): AppDeps {
  const core = createCoreDeps('identity-provider', 'idp', config, testClock);
  const { clock } = core;
  const signingKeys = new SigningKeys(core.db, new KeyEncryption(config.SIGNING_KEY_KEK, config.SIGNING_KEY_KEK_PREVIOUS), clock);
  const counters = idpCounters(core.metrics);
  const tokenStamps = new TimestampBatch(core.db, 'Authorization.lastTokenIssuedAt', 1, (err) => core.logger.warn({ err }, 'last_token_issued_at not written'));
  const purgeExpired = () => purgeExpiredRows(core.db, clock.now());
  const grants = new GrantCache(clock, {
    databaseUrl: config.DATABASE_URL,
    logger: core.logger,
    observe: (outcome) => counters.grantCache.inc({ outcome }),
  }).start();
  const housekeeping = setInterval(() => purgeExpired().catch((err: unknown) => core.logger.warn({ err }, 'housekeeping failed')), HOUSEKEEPING_MS).unref();
  return {
    ...core,
    close: async () => {
      clearInterval(housekeeping);
      await grants.close();
      await tokenStamps.close();
      await core.close();
    },
    purgeExpired,
    limits: new RequestLimits(
      core.store.limiter,
      core.store.cache,
      {
        perClient: config.RATE_LIMIT_DEFAULT,
        unit: config.RATE_LIMIT_UNIT,
        failuresPerSource: config.AUTH_FAILURE_LIMIT,
        authorizePerSource: config.AUTHORIZE_RATE_LIMIT,
      },
      core.logger,
    ),
    assertions: new ClientAssertions(config.issuer, core.store.cache, clock),
    dpop: new DpopProofs(config.IDP_SECRET, core.store.cache, clock),
    tokenStamps,
    config,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    signingKeys,
    tokens: {
      db: core.db,
      sql: core.sql,
      cache: core.store.cache,
      keys: signingKeys,
      issuer: config.issuer,
      resource: config.resource,
      secret: config.IDP_SECRET,
      clock,
      verified: new VerifiedTokens(),
      grants,
    },
    clients: new Clients(core.db),
    counters,
    presetCache: new PresetCache(core.db, core.store.cache, core.logger, (outcome) => counters.presetCache.inc({ outcome })),
    checks: [
      ...coreChecks(core),
      dependencyCheck('signing_key', () => signingKeys.signer()),
      // Never fails readiness: without the listener, bearer checks read the database as they always could.
      {
        name: 'grant_cache',
        run: async () => ({ ok: true, details: { mode: grants.live ? 'memory, kept true by PostgreSQL notifications' : 'database (listener not live)' } }),
      },
    ],
  };
}
