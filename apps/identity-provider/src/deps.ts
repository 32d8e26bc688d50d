import { TimestampBatch } from '@svc/db';
import { dependencyCheck, type Metrics, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import type { Config } from './config.js';
import { SigningKeys } from './services/signing-keys.js';
import type { TokenContext } from './services/tokens.js';
import { clientRateLimit } from './services/client-rate-limit.js';
import { PresetCache } from './services/preset-cache.js';
import { Clients } from './services/clients.js';
import { VerifiedTokens } from './services/access-tokens.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
  signingKeys: SigningKeys;
  tokens: TokenContext;
  limitClient: (clientId: string) => Promise<void>;
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
  };
}

export function buildDeps(config: Config): AppDeps {
  const core = createCoreDeps('identity-provider', 'idp', config);
  const signingKeys = new SigningKeys(core.db);
  const counters = idpCounters(core.metrics);
  const tokenStamps = new TimestampBatch(core.db, 'Authorization.lastTokenIssuedAt', 1, (err) => core.logger.warn({ err }, 'last_token_issued_at not written'));
  return {
    ...core,
    close: async () => {
      await tokenStamps.close();
      await core.close();
    },
    tokenStamps,
    config,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    signingKeys,
    tokens: { db: core.db, cache: core.store.cache, keys: signingKeys, issuer: config.issuer, secret: config.IDP_SECRET, now: () => new Date(), verified: new VerifiedTokens() },
    clients: new Clients(core.db),
    counters,
    presetCache: new PresetCache(core.db, core.store.cache, core.logger, (outcome) => counters.presetCache.inc({ outcome })),
    limitClient: clientRateLimit(core.store.limiter, config.RATE_LIMIT_DEFAULT, config.RATE_LIMIT_UNIT, core.logger),
    checks: [...coreChecks(core), dependencyCheck('signing_key', () => signingKeys.signer())],
  };
}
