import { ApiKeyAuthenticator, KeyLimiter, LimitEvents } from '@svc/api-keys';
import { type Counter, dependencyCheck, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import { KeyEncryption } from '@svc/signing-keys';
import type { Config } from './config.js';
import { IssuerKeys } from './keys/issuer-keys.js';
import { StatusListPublisher } from './status-lists/status-list-publisher.js';
import { SigningPool } from './vc/signing-pool.js';
import { type AuthorizationServerClient, authorizationServerClient } from './openid4vci/approvals/authorization-server.js';
import { type WalletDpopProofs, walletDpopProofs } from './openid4vci/dpop.js';
import { TrustedIssuers } from './verification/trusted-issuers.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
  authenticator: ApiKeyAuthenticator;
  /** Per-key hourly and burst limits inside the organization's budget, as in wallet-verify (shared store). */
  limiter: KeyLimiter;
  issuerKeys: IssuerKeys;
  pool: SigningPool;
  statusLists: StatusListPublisher;
  /** Whose credentials verify: this issuer's DIDs, and VERIFY_TRUSTED_ISSUERS. */
  trustedIssuers: TrustedIssuers;
  /** DPoP proofs at the wallet endpoints /token and /credential. */
  walletDpop: WalletDpopProofs;
  /** The identity provider wallets' approvals are asked of, when one is configured. */
  authorizationServer: AuthorizationServerClient | undefined;
  counters: {
    issued: Counter<'request'>;
    revoked: Counter<never>;
    verified: Counter<'verified'>;
  };
}

export function buildDeps(config: Config): AppDeps {
  const core = createCoreDeps('credential-issuer', 'ci', config);
  const authenticator = new ApiKeyAuthenticator({
    db: core.db,
    cacheTtlSeconds: 5,
    lastUsedFlushSeconds: 30,
    onFlushError: (err) => core.logger.warn({ err }, 'could not record API key use'),
    clock: core.clock,
  });
  const keyEncryption = new KeyEncryption('credential-issuer', config.kek);
  const issuerKeys = new IssuerKeys(core.db, config, keyEncryption, core.clock);
  const pool = new SigningPool({
    size: config.SIGNING_WORKERS,
    queueLimit: config.SIGNING_QUEUE_LIMIT,
    perTenant: config.SIGNING_JOBS_PER_ORGANIZATION,
    jobTimeoutMs: config.SIGNING_JOB_TIMEOUT_MS,
  });
  const limiter = new KeyLimiter({
    limiter: core.store.limiter,
    onRedisFailure: config.RATE_LIMIT_ON_REDIS_FAILURE,
    replicas: config.RATE_LIMIT_REPLICAS,
    logger: core.logger,
    clock: core.clock,
    events: new LimitEvents(core.db, core.logger),
    maxLimits: { hourly: config.API_KEY_MAX_HOURLY_LIMIT, burst: config.API_KEY_MAX_BURST_LIMIT },
    organizationLimits: { hourly: config.ORGANIZATION_HOURLY_LIMIT, burst: config.ORGANIZATION_BURST_LIMIT },
  });
  // The identity provider as the authorization server of wallets' approvals: one client (one
  // discovery, one key set cache) for the credential requests and the reconciliation.
  const server = config.authorizationServer;
  const authorizationServer = server && authorizationServerClient(server, config.publicUrl);
  return {
    ...core,
    config,
    authorizationServer,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    authenticator,
    limiter,
    issuerKeys,
    pool,
    trustedIssuers: new TrustedIssuers(core.db, issuerKeys, config.VERIFY_TRUSTED_ISSUERS, core.clock),
    walletDpop: walletDpopProofs(core),
    statusLists: new StatusListPublisher({ db: core.db, pool, issuerKeys, clock: core.clock }, config.publicUrl, config.STATUS_LIST_MAX_AGE_SECONDS * 1000),
    counters: {
      issued: core.metrics.counter('credentials_issued_total', 'Credentials issued, by request shape (spec or vc_api)', ['request']),
      revoked: core.metrics.counter('credentials_revoked_total', 'Credentials newly revoked', []),
      verified: core.metrics.counter('credentials_verified_total', 'Verifications, by verdict', ['verified']),
    },
    checks: [...coreChecks(core), dependencyCheck('issuer_key', () => issuerKeys.current(), { workers: pool.size })],
    close: async () => {
      await pool.close();
      await limiter.close();
      await authenticator.close();
      await core.close();
    },
  };
}
