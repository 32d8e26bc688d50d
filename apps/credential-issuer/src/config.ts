import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { baseServiceEnv, ConfigError, env, keyEncryptionEnv, keyEncryptionSettings, parseEnv } from '@svc/http';
import { API_KEY_MAX_LIMITS, CREDENTIAL_CONFIGURATION_IDS, ORGANIZATION_LIMITS } from '@svc/schemas';
import { ZWalletProviders } from '@svc/wallet-attestations';
import { certificatesProblem, verifierKeyProblem } from './keys/verifier-key.js';
import { z } from 'zod';

const blank = (v: unknown) => (v === '' ? undefined : v);

/** A comma-separated list of attestation levels (iso_18045_high, …): letters, digits, `_`, `-` and `.`. */
const levelList = () =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((level) => level.trim())
            .filter(Boolean)
        : v,
    z
      .array(z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be a comma-separated list of levels such as iso_18045_high'))
      .max(20)
      .default([]),
  );

const ZConfig = z.object({
  ...baseServiceEnv(4002),
  /** Encrypts the BBS issuer keys at rest, this service's own (envelope encryption; see docs/credential-issuer.md). */
  ...keyEncryptionEnv('ISSUER_SIGNING_KEY_KEK'),
  /** Where callers reach this service: the base of the status list URLs signed into credentials; defaults to http://localhost:PORT. */
  PUBLIC_URL: env.optionalUrl(['http:', 'https:']),
  /** Nonces (OpenID4VCI) one address may take per minute: a wallet takes one per credential. */
  NONCES_PER_MINUTE: env.int(300, 1),
  /** Requests one address may make per minute to each of the wallet's other public calls (offer, token, credential). */
  WALLET_REQUESTS_PER_MINUTE: env.int(600, 1),
  /**
   * The longest an mdoc lives (30 days): its MSO carries no status a reader can check, so its
   * validity is what bounds it after a revocation.
   */
  MDOC_VALIDITY_SECONDS: z.preprocess(
    blank,
    z.coerce
      .number()
      .int()
      .min(3600)
      .default(30 * 24 * 3600),
  ),
  /**
   * How many copies of a credential a wallet may ask for in one request (OpenID4VCI 1.0
   * batch_credential_issuance.batch_size): one proof each, each copy bound to its own key.
   */
  CREDENTIAL_BATCH_SIZE: z.preprocess(blank, z.coerce.number().int().min(1).max(100).default(10)),
  /**
   * The wallet providers whose attestations this issuer trusts (HAIP 1.0): a JSON array of
   * {"name", "keys": [<public JWK>…]} or {"name", "certificate": "<PEM>"}; `name` is their `iss`.
   */
  WALLET_PROVIDERS: ZWalletProviders,
  /** `true`: a token request without a wallet attestation is refused (invalid_client). One that is presented is always checked. */
  WALLET_ATTESTATION_REQUIRED: env.bool(false),
  /**
   * Configurations bound to attested keys only (comma-separated ids, e.g. age_over_mdoc): each
   * proof must carry a key attestation of a WALLET_PROVIDERS provider (OpenID4VCI 1.0 Appendix D).
   */
  KEY_ATTESTATIONS_REQUIRED: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean)
        : v,
    z.array(z.enum(CREDENTIAL_CONFIGURATION_IDS, { message: `must be a comma-separated list of: ${CREDENTIAL_CONFIGURATION_IDS.join(', ')}` })).default([]),
  ),
  /**
   * Where only attested keys are taken: the key storage levels (OpenID4VCI 1.0 Appendix D.2, e.g.
   * iso_18045_high) and user authentication levels a key attestation must name one of; unset, any.
   */
  KEY_ATTESTATION_KEY_STORAGE: levelList(),
  KEY_ATTESTATION_USER_AUTHENTICATION: levelList(),
  /** The issuer's name as wallets show it (OpenID4VCI metadata `display`). */
  ISSUER_DISPLAY_NAME: z.preprocess(blank, z.string().trim().min(1).max(60).default('Credential issuer')),
  /**
   * OpenID4VCI's authorization code flow (docs/credential-issuer.md, "Wallets"): the identity
   * provider that authorizes wallets (its issuer URL), the confidential client this issuer
   * introspects their access tokens with there, and the organization whose API keys list and revoke
   * what they receive. All four or none; unset, wallets come with offers (pre-authorized codes) only.
   */
  AUTHORIZATION_SERVER_URL: env.optionalUrl(['http:', 'https:']),
  AUTHORIZATION_SERVER_CLIENT_ID: z.preprocess(blank, z.string().max(100).optional()),
  AUTHORIZATION_SERVER_CLIENT_SECRET: z.preprocess(blank, z.string().max(200).optional()),
  WALLET_ORGANIZATION_ID: z.preprocess(blank, z.uuid({ message: 'must be a UUID (an organization id)' }).optional()),
  /**
   * The signing secret of the identity provider's webhook endpoint that tells this issuer of ended
   * wallet approvals (while it is rotated there, deliveries carry a signature by each secret).
   */
  AUTHORIZATION_SERVER_WEBHOOK_SECRET: z.preprocess(
    blank,
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, 'must be a webhook endpoint’s secret: whsec_ and base64')
      .optional(),
  ),
  /** How often the approvals behind wallets' live credentials are checked at the identity provider (the reconciliation). */
  WALLET_APPROVAL_SWEEP_SECONDS: env.int(300, 1),
  /** How long verifiers and caches may keep a status list (Cache-Control max-age, and the list's `ttl`). */
  STATUS_LIST_MAX_AGE_SECONDS: env.int(300, 0),
  /** Signing threads; BBS is CPU-bound, so one per core. */
  SIGNING_WORKERS: env.int(availableParallelism(), 1),
  /** Jobs allowed to wait for a thread; beyond it, 503 with Retry-After. */
  SIGNING_QUEUE_LIMIT: env.int(64, 1),
  /**
   * Signing jobs one organization may hold, waiting and running together, whatever number of API
   * keys it has, so one organization cannot take every thread and the queue.
   */
  SIGNING_JOBS_PER_ORGANIZATION: env.int(16, 1),
  /** How long one signing job may run; past it the job fails with 503 and its thread is replaced. */
  SIGNING_JOB_TIMEOUT_MS: env.int(20_000, 100),
  /** When Redis is down: refuse (closed) or hold each replica to limit ÷ RATE_LIMIT_REPLICAS (open). */
  RATE_LIMIT_ON_REDIS_FAILURE: z.preprocess(blank, z.enum(['closed', 'open']).default('open')),
  RATE_LIMIT_REPLICAS: env.int(1, 1),
  /**
   * The platform maximum of one API key's limits: a key whose own limits are higher (tenants choose
   * them) is held to these. The operator's to raise; the identity provider refuses keys above them.
   */
  API_KEY_MAX_HOURLY_LIMIT: env.int(API_KEY_MAX_LIMITS.hourly, 1),
  API_KEY_MAX_BURST_LIMIT: env.int(API_KEY_MAX_LIMITS.burst, 1),
  /**
   * What all of one organization's API keys together may use of this service, per clock hour and
   * per second: keys are self-service, so without it an organization would get as much as it made
   * keys for. Over it, 429 as for a key's own limits. The operator's to set.
   */
  ORGANIZATION_HOURLY_LIMIT: env.int(ORGANIZATION_LIMITS.hourly, 1),
  ORGANIZATION_BURST_LIMIT: env.int(ORGANIZATION_LIMITS.burst, 1),
  /** Default lifetime of a credential; unset: no validUntil (no expiry). */
  CREDENTIAL_VALIDITY_SECONDS: z.preprocess(blank, z.coerce.number().int().min(60).optional()),
  CREDENTIAL_STATUS_TYPE: z.preprocess(
    blank,
    z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/)
      .default('SvcRevocationRegistry'),
  ),
  CHAIN_ID: z.preprocess(
    blank,
    z
      .string()
      .regex(/^\d{1,20}$/, 'must be a decimal chain id')
      .default('1'),
  ),
  REVOCATION_REGISTRY_ADDRESS: z.preprocess(
    blank,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .default('0x0000000000000000000000000000000000000000'),
  ),
  DID_REGISTRY_ADDRESS: z.preprocess(
    blank,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .default('0x0000000000000000000000000000000000000000'),
  ),
  /**
   * Issuers whose credentials verify beside this service's own DIDs (comma-separated DIDs), for a
   * deployment that accepts its partners' credentials; a request may name more in options.trustedIssuers.
   */
  VERIFY_TRUSTED_ISSUERS: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean)
        : v,
    z
      .array(
        z
          .string()
          .regex(/^did:[a-z0-9]+:[A-Za-z0-9._:%-]+$/, 'must be a comma-separated list of DIDs')
          .max(2000),
      )
      .max(100)
      .default([]),
  ),
  /**
   * The CA that certifies the keys SD-JWT VCs, Status List Tokens and mdocs are signed with (HAIP
   * 1.0 `x5c`): a PEM certificate and its PEM PKCS#8 P-256 key, both or neither; neither makes one
   * on the first start and keeps it. Verifiers add its certificate (GET /certificates/issuer-ca.pem) to their trust lists.
   */
  ISSUER_CA_CERT: z.preprocess(blank, z.string().max(20_000).includes('-----BEGIN CERTIFICATE-----', { message: 'must be a PEM certificate' }).optional()),
  ISSUER_CA_KEY: z.preprocess(
    blank,
    z.string().max(20_000).includes('-----BEGIN PRIVATE KEY-----', { message: 'must be a PEM PKCS#8 private key' }).optional(),
  ),
  /** The country (ISO 3166-1 alpha-2) the CA and its certificates name, as ISO/IEC 18013-5 asks of mdoc issuers; ZZ (unassigned) until set. */
  ISSUER_CA_COUNTRY: z.preprocess(
    blank,
    z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE')
      .default('ZZ'),
  ),
  /**
   * The certificate chain (PEM, leaf first, no root) and PKCS#8 P-256 key that sign presentation
   * requests (OpenID4VP `x509_hash` client id); neither: a key made on the first start, certified
   * by the issuer CA and kept.
   */
  VERIFIER_CERT: z.preprocess(blank, z.string().max(50_000).includes('-----BEGIN CERTIFICATE-----', { message: 'must be PEM certificates' }).optional()),
  VERIFIER_KEY: z.preprocess(blank, z.string().max(20_000).includes('-----BEGIN PRIVATE KEY-----', { message: 'must be a PEM PKCS#8 private key' }).optional()),
  /**
   * Root certificates (PEM, one or more) whose SD-JWT VCs and mdocs presentations may carry, beside
   * this issuer's own CA: the EU member states' PID and age verification providers, an mDL issuer.
   */
  TRUSTED_ISSUER_CERTS: z.preprocess(
    blank,
    z.string().max(500_000).includes('-----BEGIN CERTIFICATE-----', { message: 'must be PEM certificates' }).optional(),
  ),
  /**
   * `true`: other issuers' status lists (named by presented SD-JWT VCs) and wallet providers' (named
   * by key attestations) may be fetched from private and loopback addresses and over http. For
   * development against an issuer or provider on the same machine only.
   */
  STATUS_LISTS_ALLOW_PRIVATE: env.bool(false),
  /** Presentation requests one organization may hold open at once (each lives 300 s); past it, 429. */
  PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION: env.int(1000, 1),
  /** How long a presentation request's result is kept after the request's 300 s (then the row is deleted). */
  PRESENTATION_RESULTS_KEPT_SECONDS: env.int(24 * 3600, 60),
  /** An issuer key from configuration instead of the database: both multibase halves. */
  ISSUER_PUBLIC_KEY_MULTIBASE: z.preprocess(
    blank,
    z
      .string()
      .regex(/^zUC[1-9A-HJ-NP-Za-km-z]{100,200}$/)
      .optional(),
  ),
  ISSUER_SECRET_KEY_MULTIBASE: z.preprocess(
    blank,
    z
      .string()
      .regex(/^z[1-9A-HJ-NP-Za-km-z]{20,100}$/)
      .optional(),
  ),
});

/** The identity provider wallets are authorized at, when one is configured. */
export interface AuthorizationServer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  organizationId: string;
  /** Set: the identity provider's wallet_approval.* events are taken at POST /authorization-server/events, signed with it. */
  webhookSecret: string | undefined;
}

export type Config = z.output<typeof ZConfig> & {
  publicUrl: string;
  kek: ReturnType<typeof keyEncryptionSettings>;
  authorizationServer: AuthorizationServer | undefined;
};

/**
 * The operator's CA, checked with Node's X.509 before anything starts: a CA certificate that may
 * sign certificates, and the private half of its P-256 key.
 */
function checkIssuerCa(certificatePem: string, privateKeyPem: string): void {
  let certificate: X509Certificate;
  let key: KeyObject;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw new ConfigError('Invalid configuration: ISSUER_CA_CERT: not a readable PEM certificate');
  }
  try {
    key = createPrivateKey(privateKeyPem);
  } catch {
    throw new ConfigError('Invalid configuration: ISSUER_CA_KEY: not a readable PEM private key');
  }
  if (!certificate.ca) throw new ConfigError('Invalid configuration: ISSUER_CA_CERT: not a CA certificate (basicConstraints cA is not set)');
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new ConfigError('Invalid configuration: ISSUER_CA_KEY: must be a P-256 (prime256v1) key');
  if (!certificate.checkPrivateKey(key)) throw new ConfigError('Invalid configuration: ISSUER_CA_KEY: not the key of ISSUER_CA_CERT');
  if (Date.parse(certificate.validTo) <= Date.now()) throw new ConfigError(`Invalid configuration: ISSUER_CA_CERT: expired on ${certificate.validTo}`);
}

/** A wallet credential's life: CREDENTIAL_VALIDITY_SECONDS, or a year, then the wallet asks again. */
export const walletCredentialValiditySeconds = (config: Pick<Config, 'CREDENTIAL_VALIDITY_SECONDS'>) => config.CREDENTIAL_VALIDITY_SECONDS ?? 365 * 24 * 3600;

/** Every variable this service reads, for checks of deployment manifests. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZConfig.shape);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(ZConfig, environment);
  if (Boolean(config.ISSUER_PUBLIC_KEY_MULTIBASE) !== Boolean(config.ISSUER_SECRET_KEY_MULTIBASE)) {
    throw new ConfigError('Invalid configuration: ISSUER_SECRET_KEY_MULTIBASE: must be set together with ISSUER_PUBLIC_KEY_MULTIBASE');
  }
  if (Boolean(config.ISSUER_CA_CERT) !== Boolean(config.ISSUER_CA_KEY))
    throw new ConfigError('Invalid configuration: ISSUER_CA_CERT and ISSUER_CA_KEY: set both (the CA and its key), or neither');
  if (config.ISSUER_CA_CERT) checkIssuerCa(config.ISSUER_CA_CERT, config.ISSUER_CA_KEY!);
  if (Boolean(config.VERIFIER_CERT) !== Boolean(config.VERIFIER_KEY))
    throw new ConfigError('Invalid configuration: VERIFIER_CERT and VERIFIER_KEY: set both (the chain and its key), or neither');
  const verifierProblem = config.VERIFIER_CERT && verifierKeyProblem(config.VERIFIER_CERT, config.VERIFIER_KEY!);
  if (verifierProblem) throw new ConfigError(`Invalid configuration: ${verifierProblem}`);
  const trustedRootsProblem = config.TRUSTED_ISSUER_CERTS && certificatesProblem(config.TRUSTED_ISSUER_CERTS);
  if (trustedRootsProblem) throw new ConfigError(`Invalid configuration: TRUSTED_ISSUER_CERTS: ${trustedRootsProblem}`);
  if (config.WALLET_ATTESTATION_REQUIRED && config.WALLET_PROVIDERS.length === 0)
    throw new ConfigError('Invalid configuration: WALLET_ATTESTATION_REQUIRED: needs WALLET_PROVIDERS, or no wallet could ever be attested');
  if (config.KEY_ATTESTATIONS_REQUIRED.length > 0 && config.WALLET_PROVIDERS.length === 0)
    throw new ConfigError('Invalid configuration: KEY_ATTESTATIONS_REQUIRED: needs WALLET_PROVIDERS, or no key could ever be attested');
  const kek = keyEncryptionSettings(config, 'ISSUER_SIGNING_KEY_KEK');
  const server = [
    config.AUTHORIZATION_SERVER_URL,
    config.AUTHORIZATION_SERVER_CLIENT_ID,
    config.AUTHORIZATION_SERVER_CLIENT_SECRET,
    config.WALLET_ORGANIZATION_ID,
  ];
  if (server.some((v) => v !== undefined) && !server.every((v) => v !== undefined))
    throw new ConfigError(
      'Invalid configuration: AUTHORIZATION_SERVER_URL, AUTHORIZATION_SERVER_CLIENT_ID, AUTHORIZATION_SERVER_CLIENT_SECRET and WALLET_ORGANIZATION_ID: set all four, or none',
    );
  if (config.AUTHORIZATION_SERVER_WEBHOOK_SECRET && !config.AUTHORIZATION_SERVER_URL)
    throw new ConfigError(
      'Invalid configuration: AUTHORIZATION_SERVER_WEBHOOK_SECRET: set only with AUTHORIZATION_SERVER_URL and the rest of the authorization server',
    );
  const authorizationServer = config.AUTHORIZATION_SERVER_URL
    ? {
        issuer: config.AUTHORIZATION_SERVER_URL.replace(/\/+$/, ''),
        clientId: config.AUTHORIZATION_SERVER_CLIENT_ID!,
        clientSecret: config.AUTHORIZATION_SERVER_CLIENT_SECRET!,
        organizationId: config.WALLET_ORGANIZATION_ID!,
        webhookSecret: config.AUTHORIZATION_SERVER_WEBHOOK_SECRET,
      }
    : undefined;
  return { ...config, kek, publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''), authorizationServer };
}
