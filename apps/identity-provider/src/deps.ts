import { readFileSync } from 'node:fs';
import { TimestampBatch } from '@svc/db';
import { dependencyCheck, readPackageVersion, type ReadinessCheck, outboundFetch } from '@svc/http';
import { type Clock, coreChecks, createCoreDeps, type CoreDeps, DpopProofs } from '@svc/runtime';
import { WalletProviders } from '@svc/wallet-attestations';
import { KeyEncryption, WebhookSecrets } from '@svc/signing-keys';
import { invalidDpopProof, useDpopNonce } from './errors.js';
import type { Config } from './config.js';
import { SIGNING_ALGORITHMS, SigningKeys } from './keys/signing-keys.js';
import { purgeExpired as purgeExpiredRows } from './authorize/authorizations.js';
import { ClientAssertions } from './clients/client-assertions.js';
import { BackchannelLogout } from './logout/backchannel-logout.js';
import { RequestLimits } from './limits/request-limits.js';
import { PresetCache } from './data-access/preset-cache.js';
import { Clients } from './clients/clients.js';
import { VerifiedTokens } from './tokens/verified-tokens.js';
import { GrantCache } from './tokens/grant-cache.js';
import { RefreshRotations } from './tokens/refresh/refresh-tokens.js';
import type { WebhookDeps } from './webhooks/deps.js';
import type { WebhookDeliveryDeps } from './webhook-outbox/deliverer.js';
import { announceDataWindowEnds } from './webhook-outbox/data-window-events.js';
import { idpCounters } from './metrics.js';
import { EnvironmentGuard } from './environment/environment.js';
import type { AuthorizeDeps } from './authorize/deps.js';
import type { ConsentDeps } from './consent/deps.js';
import type { DataAccessDeps } from './data-access/deps.js';
import type { DeveloperDeps } from './developer/deps.js';
import { purgeExpiredSignUps } from './developer/signup/signup.js';
import type { PasswordResetDeps } from './password-reset/deps.js';
import { MailLater } from './password-reset/mail-later.js';
import { purgeExpiredResets } from './password-reset/request-reset.js';
import type { MailDeps } from './mail/deps.js';
import { buildMailer } from './mail/build-mailer.js';
import type { SandboxDeps } from './sandbox/deps.js';
import type { DiscoveryDeps } from './discovery/deps.js';
import type { HousekeepingDeps } from './jobs/housekeeping.js';
import type { LogoutDeps } from './logout/deps.js';
import type { RevocationDeps } from './revocation/deps.js';
import type { SessionDeps } from './sessions/deps.js';
import type { PasskeyDeps } from './passkeys/deps.js';
import type { TokenDeps } from './tokens/deps.js';

/**
 * Everything the app is built from: the core every service has, and what each capability declares
 * it needs (its `deps.ts`; the HTTP helpers and jobs declare theirs beside them). A router is
 * handed the whole bag but types only its own part of it.
 */
export interface AppDeps
  extends CoreDeps,
    AuthorizeDeps,
    ConsentDeps,
    SessionDeps,
    PasskeyDeps,
    TokenDeps,
    RevocationDeps,
    DiscoveryDeps,
    DataAccessDeps,
    DeveloperDeps,
    SandboxDeps,
    LogoutDeps,
    WebhookDeps,
    WebhookDeliveryDeps,
    HousekeepingDeps,
    MailDeps,
    PasswordResetDeps {
  version: string;
  checks: ReadinessCheck[];
  /** What sessions/ knows only as whom to tell of a session's end; tests wait for its deliveries. */
  logout: BackchannelLogout;
}

export function buildDeps(config: Config, testClock?: Clock): AppDeps {
  const environment = new EnvironmentGuard(config.SVC_ENVIRONMENT, config.baseUrls);
  // A sandbox may share production's Redis: its keys live apart unless REDIS_KEY_PREFIX says otherwise.
  const core = createCoreDeps('identity-provider', environment.sandbox ? 'idp-sandbox' : 'idp', config, testClock);
  const { clock } = core;
  const keyEncryption = new KeyEncryption('identity-provider', config.kek);
  const signingKeys = new SigningKeys(core.db, keyEncryption, clock);
  const counters = idpCounters(core.metrics);
  const tokenStamps = new TimestampBatch(core.db, 'Authorization.lastTokenIssuedAt', 1, (err) => core.logger.warn({ err }, 'last_token_issued_at not written'));
  const { closeMailer, ...mail } = buildMailer(config.mail, core.db, clock, core.logger);
  const mailLater = new MailLater(core.logger);
  const purgeExpired = async () => {
    const [rows, signUps, resets, mails] = await Promise.all([
      purgeExpiredRows(core.db, clock.now()),
      purgeExpiredSignUps({ db: core.db, clock }),
      purgeExpiredResets({ db: core.db, clock }),
      mail.outbox?.purge() ?? 0,
    ]);
    return rows + signUps + resets + mails;
  };
  const grants = new GrantCache(clock, {
    databaseUrl: config.DATABASE_URL,
    logger: core.logger,
    observe: (outcome) => counters.grantCache.inc({ outcome }),
  }).start();
  const tokens = {
    db: core.db,
    sql: core.sql,
    rotations: new RefreshRotations(core.sql, tokenStamps),
    cache: core.store.cache,
    keys: signingKeys,
    issuer: config.issuer,
    resource: config.resource,
    secret: config.IDP_SECRET,
    clock,
    verified: new VerifiedTokens(),
    grants,
    environment,
    credentialIssuerClientId: config.credentialIssuer?.clientId,
  };
  // Clients' back-channel logout URIs are reached like their jwks_uri: never an internal address.
  const logout = new BackchannelLogout(
    tokens,
    outboundFetch(config.JWKS_URI_ALLOW_PRIVATE, { what: "The client's backchannel_logout_uri", log: core.logger }),
    core.logger,
  );
  return {
    ...core,
    ...mail,
    mailLater,
    close: async () => {
      // Mail a request already answered for goes out before the mailer closes.
      await mailLater.settled();
      closeMailer();
      await logout.settled();
      await grants.close();
      await tokenStamps.close();
      await core.close();
    },
    purgeExpired,
    announceDataWindowEnds: () => announceDataWindowEnds(core.db, config.IDP_SECRET, clock.now()),
    webhookSecrets: new WebhookSecrets(keyEncryption),
    // A receiver's answer is read no further than a status line's worth: only its status counts.
    webhookFetch: outboundFetch(config.WEBHOOK_ALLOW_PRIVATE_TARGETS, { what: 'The webhook endpoint', maxBytes: 4096, overflow: 'truncate', log: core.logger }),
    limits: new RequestLimits(
      core.store.limiter,
      {
        perClient: config.RATE_LIMIT_DEFAULT,
        perGrant: config.rateLimitPerGrant,
        perSource: config.rateLimitPerSource,
        unit: config.RATE_LIMIT_UNIT,
        failuresPerSource: config.AUTH_FAILURE_LIMIT,
        authorizePerSource: config.AUTHORIZE_RATE_LIMIT,
        signupsPerSource: config.SIGNUP_RATE_LIMIT,
      },
      core.logger,
      clock,
    ),
    assertions: new ClientAssertions(config.issuer, core.store.cache, clock, config.JWKS_URI_ALLOW_PRIVATE, core.logger),
    dpop: new DpopProofs({ nonceSecret: config.IDP_SECRET, cache: core.store.cache, clock, refusals: { invalid: invalidDpopProof, useNonce: useDpopNonce } }),
    tokenStamps,
    config,
    environment,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    // Beside package.json, at the same place relative to this file in dist/ and in the bundle.
    passkeyScript: readFileSync(new URL('../assets/passkeys.js', import.meta.url), 'utf8'),
    signingKeys,
    tokens,
    logout,
    clients: new Clients(core.db, environment),
    walletAttestations: { config, walletProviders: new WalletProviders(config.WALLET_PROVIDERS), clock, cache: core.store.cache },
    counters,
    presetCache: new PresetCache(core.db, core.store.cache, core.logger, (outcome) => counters.presetCache.inc({ outcome })),
    checks: [
      ...coreChecks(core),
      // A key for every algorithm: a client registered for PS256 is served as surely as the rest.
      dependencyCheck('signing_key', () => Promise.all(SIGNING_ALGORITHMS.map((alg) => signingKeys.signer(alg)))),
      // Never fails readiness: without the listener, bearer checks read the database as they always could.
      {
        name: 'grant_cache',
        run: async () => ({ ok: true, details: { mode: grants.live ? 'memory, kept true by PostgreSQL notifications' : 'database (listener not live)' } }),
      },
    ],
  };
}
