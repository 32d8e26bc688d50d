import { ApiKeyAuthenticator, KeyLimiter, LimitEvents } from '@svc/api-keys';
import { dependencyCheck, outboundFetch, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import { KeyEncryption } from '@svc/signing-keys';
import { WalletProviders } from '@svc/wallet-attestations';
import { type Config, walletCredentialValiditySeconds } from './config.js';
import type { IssuanceDeps } from './issuance/deps.js';
import type { KeysDeps } from './keys/deps.js';
import { IssuerCa } from './keys/issuer-ca.js';
import { IssuerKeys } from './keys/issuer-keys.js';
import { RequestEncryptionKey } from './keys/request-encryption-key.js';
import { VerifierKey } from './keys/verifier-key.js';
import { issuerCounters } from './metrics.js';
import { authorizationServerClient } from './openid4vci/approvals/authorization-server.js';
import type { Openid4vciDeps } from './openid4vci/deps.js';
import type { Openid4vpDeps } from './openid4vp/deps.js';
import { walletDpopProofs } from './openid4vci/dpop.js';
import { ownResources } from './openid4vci/metadata/metadata.js';
import type { StatusListsDeps } from './status-lists/deps.js';
import { fetchStatusList, RecentStatusLists } from './status-lists/foreign-status-lists.js';
import { StatusListPublisher } from './status-lists/status-list-publisher.js';
import { SigningPool } from './vc/signing-pool.js';
import type { VerificationDeps } from './verification/deps.js';
import { TrustedIssuers } from './verification/trusted-issuers.js';

/**
 * Everything the app is built from: the core every service has, and what each capability declares
 * it needs (its `deps.ts`). A router is handed the whole bag but types only its own part of it.
 */
export interface AppDeps extends CoreDeps, KeysDeps, IssuanceDeps, VerificationDeps, StatusListsDeps, Openid4vciDeps, Openid4vpDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
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
  const ca = new IssuerCa(core.db, keyEncryption, core.clock, {
    given: config.ISSUER_CA_CERT ? { certificatePem: config.ISSUER_CA_CERT, privateKeyPem: config.ISSUER_CA_KEY! } : undefined,
    country: config.ISSUER_CA_COUNTRY,
    name: `${config.ISSUER_DISPLAY_NAME} CA`,
  });
  const credentialLifetimeMs = walletCredentialValiditySeconds(config) * 1000;
  // A status list is a bit per credential: 1 MiB holds eight million of them.
  const statusListFetch = outboundFetch(config.STATUS_LISTS_ALLOW_PRIVATE, { what: 'The status list', maxBytes: 1024 * 1024, log: core.logger });
  const issuerKeys = new IssuerKeys(core.db, config, keyEncryption, core.clock, { ca, credentialLifetimeMs });
  const pool = new SigningPool({
    size: config.SIGNING_WORKERS,
    queueLimit: config.SIGNING_QUEUE_LIMIT,
    perTenant: config.SIGNING_JOBS_PER_ORGANIZATION,
    jobTimeoutMs: config.SIGNING_JOB_TIMEOUT_MS,
    // Resolved here, beside server.js, so the bundle (scripts/bundle.mjs) finds it at the same path.
    workerUrl: new URL('./vc/signing-worker.js', import.meta.url),
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
    issuerCa: ca,
    keyEncryption,
    verifierKey: new VerifierKey({
      db: core.db,
      keys: keyEncryption,
      ca,
      clock: core.clock,
      settings: {
        given: config.VERIFIER_CERT ? { certificatesPem: config.VERIFIER_CERT, privateKeyPem: config.VERIFIER_KEY! } : undefined,
        publicUrl: config.publicUrl,
        commonName: `${config.ISSUER_DISPLAY_NAME} verifier`,
        country: config.ISSUER_CA_COUNTRY,
      },
    }),
    pool,
    trustedIssuers: new TrustedIssuers(core.db, issuerKeys, config.VERIFY_TRUSTED_ISSUERS, core.clock),
    walletDpop: walletDpopProofs(core),
    walletProviders: new WalletProviders(config.WALLET_PROVIDERS),
    statusListFetch,
    keyAttestationStatusLists: new RecentStatusLists(
      (uri) => fetchStatusList(statusListFetch, config.STATUS_LISTS_ALLOW_PRIVATE, uri),
      () => core.clock.now().getTime(),
    ),
    requestEncryptionKey: new RequestEncryptionKey({ db: core.db, keys: keyEncryption }),
    // Type metadata this issuer serves, whose digests a credential's relatedResource may name: the
    // JSON-LD contexts and document loader, by contrast, live in vc/, which the signing threads load.
    ownResources: ownResources(config.publicUrl),
    statusLists: new StatusListPublisher({ db: core.db, pool, issuerKeys, clock: core.clock }, config.publicUrl, config.STATUS_LIST_MAX_AGE_SECONDS * 1000),
    counters: issuerCounters(core.metrics),
    checks: [...coreChecks(core), dependencyCheck('issuer_key', () => issuerKeys.current(), { workers: pool.size })],
    close: async () => {
      await pool.close();
      await limiter.close();
      await authenticator.close();
      await core.close();
    },
  };
}
