import { createHmac, X509Certificate } from 'node:crypto';
import { baseServiceEnv, ConfigError, env, keyEncryptionEnv, keyEncryptionSettings, parseEnv } from '@svc/http';
import { API_KEY_MAX_LIMITS } from '@svc/schemas';
import { ZWalletProviders } from '@svc/wallet-attestations';
import { z } from 'zod';
import type { BaseUrls } from './environment/environment.js';
import type { Provider } from './views/pages.js';

/** The sandbox's port when PORT is not set (production's is 4000). */
export const SANDBOX_PORT = 4005;

const blank = (v: unknown) => (v === '' ? undefined : v);

// Headers a client sends for its own purposes: never where the TLS terminator's certificate goes.
const RESERVED_HEADERS = ['authorization', 'cookie', 'dpop', 'host', 'content-type', 'content-length', 'x-forwarded-for', 'forwarded'];

const ZConfig = z.object({
  ...baseServiceEnv(4000),
  /** production, or sandbox: test data on demand, `sbx_` on everything it makes; its own database, issuer and keys (docs/sandbox.md). */
  SVC_ENVIRONMENT: z.preprocess(blank, z.enum(['production', 'sandbox']).default('production')),
  /** The other environment's base URL, named to a caller who sends its credentials here (a sandbox names production's, and the reverse). */
  PRODUCTION_BASE_URL: env.optionalUrl(['http:', 'https:']),
  SANDBOX_BASE_URL: env.optionalUrl(['http:', 'https:']),
  /** Who may sign up as a developer: anyone (open; the sandbox's default), or members invited by an organization (production's default). */
  CONSOLE_SIGNUP: z.preprocess(blank, z.enum(['open', 'invite']).optional()),
  /** Encrypts the RS256 private keys at rest, this service's own (envelope encryption; see docs/identity-provider.md). */
  ...keyEncryptionEnv('IDP_SIGNING_KEY_KEK'),
  /** The name the hosted sign-in and consent pages give the identity provider, beside its host. */
  IDP_DISPLAY_NAME: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).max(60).optional()),
  /** The issuer identifier and base of every advertised endpoint; defaults to http://localhost:PORT. */
  PUBLIC_URL: env.optionalUrl(['http:', 'https:']),
  /** Requests allowed per client per RATE_LIMIT_UNIT, advertised in svc-configuration. */
  RATE_LIMIT_DEFAULT: env.int(600, 1),
  /**
   * Each end user's share of a client's budget per RATE_LIMIT_UNIT, however many grants of it they
   * hold (advertised as rate_limit_per_grant), so one end user cannot use up a client; unset: a tenth of RATE_LIMIT_DEFAULT, rounded up.
   */
  RATE_LIMIT_PER_GRANT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).optional()),
  /**
   * The most of a public client's budget per RATE_LIMIT_UNIT that one source address (an IPv4
   * address, an IPv6 /64) may use, however many end users' grants it holds (advertised as
   * rate_limit_per_source): accounts are cheap, addresses less so. Unset: a quarter of
   * RATE_LIMIT_DEFAULT, rounded up, and never less than RATE_LIMIT_PER_GRANT.
   */
  RATE_LIMIT_PER_SOURCE: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).optional()),
  /** Keys the CSRF tokens, the pairwise app_scoped_user_id and DPoP nonces; the same on every replica. */
  IDP_SECRET: env.strongSecret(32),
  /** Keys the per-organization user UUIDs (wallet-verify's user_id, user-token's user_id); shared with wallet-verify only. */
  PAIRWISE_SECRET: env.strongSecret(32),
  /**
   * Keys the nullifiers of actions (POST /v2/actions/{action}/proofs): the same on every replica and
   * never changed, or every person could prove every action anew. Unset: derived from IDP_SECRET,
   * which then must never change either; set it to keep the two apart.
   */
  ACTION_NULLIFIER_SECRET: z.preprocess(blank, env.strongSecret(32).optional()),
  /** Failed client authentications or grants per client and source address per 5 minutes, then 429. */
  AUTH_FAILURE_LIMIT: env.int(30, 1),
  /** Lets the server fetch a client's jwks_uri from private, loopback or link-local addresses: development only. */
  JWKS_URI_ALLOW_PRIVATE: env.bool(false),
  /**
   * RFC 8705 behind a TLS-terminating proxy: the request header in which the proxy passes the
   * client's verified certificate (RFC 9440 Client-Cert, `:base64 DER:`). Unset, mutual TLS is not
   * offered. Honoured only from the proxies TRUST_PROXY names (required with it). The proxy must
   * remove the header from every request that reaches it, or a client could name any certificate.
   */
  /**
   * The wallet providers whose attestations this server trusts at PAR and the token endpoint (HAIP
   * 1.0): a JSON array of {"name", "keys": [<public JWK>…]} or {"name", "certificate": "<PEM>"}.
   */
  WALLET_PROVIDERS: ZWalletProviders,
  /** `true`: a request for credentials (openid_credential) must be pushed with a wallet attestation. One that is presented is always checked. */
  WALLET_ATTESTATION_REQUIRED: env.bool(false),
  MTLS_CLIENT_CERT_HEADER: z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
    z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, 'must be a header name')
      .refine((name) => !RESERVED_HEADERS.includes(name), 'must be a header of its own, not one clients send for other purposes')
      .optional(),
  ),
  /**
   * Lets webhook endpoints be http, or on private, loopback or link-local addresses: development
   * and tests only (npm start on embedded defaults sets it), never where other tenants' endpoints run.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: env.bool(false),
  /** Developer sign-ups per source address per hour, then 429. */
  SIGNUP_RATE_LIMIT: env.int(20, 1),
  /** /oauth/authorize requests per client and source address per minute, then 429. */
  AUTHORIZE_RATE_LIMIT: env.int(30, 1),
  RATE_LIMIT_UNIT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['second', 'minute', 'hour']).default('minute')),
  /**
   * The platform maximum of one API key's limits (wallet verify, the credential issuer): a developer
   * asking for more is refused (400 naming the field and the maximum). The operator's to raise; set
   * the same values on wallet-verify and the credential issuer, which hold every key to them.
   */
  API_KEY_MAX_HOURLY_LIMIT: env.int(API_KEY_MAX_LIMITS.hourly, 1),
  API_KEY_MAX_BURST_LIMIT: env.int(API_KEY_MAX_LIMITS.burst, 1),
  /**
   * OpenID4VCI's authorization code flow (docs/credential-issuer.md, "Wallets"): the credential
   * issuer this server authorizes wallets for, and the client id it introspects their tokens with
   * (a confidential client of this server). Both or neither; unset, `authorization_details` of type
   * openid_credential are refused and not advertised.
   */
  CREDENTIAL_ISSUER_URL: env.optionalUrl(['http:', 'https:']),
  CREDENTIAL_ISSUER_CLIENT_ID: z.preprocess(blank, z.string().max(100).optional()),
  /**
   * How long a mailed password-reset link works, in seconds (default 30 minutes): long enough to
   * find the mail, short enough that a mailbox read later opens nothing. At most a day.
   */
  PASSWORD_RESET_TTL_SECONDS: z.preprocess(blank, z.coerce.number().int().min(60).max(86_400).default(1800)),
  /**
   * Where mail (sign-up links) goes out: an SMTP server, `smtp://` or `smtps://`, with its login in
   * the URL (`smtps://user:password@smtp.example.com:465`). Unset: mail is kept in a local outbox
   * instead, which only a local deployment may do (MAIL_OUTBOX).
   */
  SMTP_URL: env.optionalUrl(['smtp:', 'smtps:']),
  /** The sender of its mail, e.g. `Acme ID <no-reply@id.acme.example>`; unset: IDP_DISPLAY_NAME at no-reply@ PUBLIC_URL's host. */
  MAIL_FROM: z.preprocess(blank, z.string().trim().min(3).max(200).optional()),
  /**
   * `local`: keep mail in the database and show it on /dev/outbox, to anyone who can reach this
   * service, instead of sending it. Implied where PUBLIC_URL is a loopback address (npm start);
   * anywhere else without SMTP_URL, the service refuses to start rather than lose or expose mail.
   */
  MAIL_OUTBOX: z.preprocess(blank, z.enum(['local']).optional()),
  /**
   * The roots of the passkey authenticators this operator trusts as hardware (PEM certificates, one
   * after the other; or a file of them in PASSKEY_ATTESTATION_ROOTS_FILE). Set, registration asks
   * for attestation, and a passkey whose attestation chains to one of them signs in as `phrh`
   * (`hwk`); every other passkey is `phr` (`swk`). Unset, attestation is not asked for.
   */
  PASSKEY_ATTESTATION_ROOTS: z.preprocess(
    blank,
    z
      .string()
      .max(200_000)
      .transform((pem, ctx) => {
        const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
        if (blocks.length === 0) ctx.addIssue({ code: 'custom', message: 'must hold one or more PEM certificates (-----BEGIN CERTIFICATE-----)' });
        for (const [i, block] of blocks.entries()) {
          try {
            new X509Certificate(block);
          } catch {
            ctx.addIssue({ code: 'custom', message: `certificate ${i + 1} is not a readable X.509 certificate` });
          }
        }
        return blocks;
      })
      .optional(),
  ),
});

export type Config = z.output<typeof ZConfig> & {
  issuer: string;
  /** Both environments' base URLs, as far as known: this one's is its issuer. */
  baseUrls: BaseUrls;
  signup: 'open' | 'invite';
  resource: string;
  kek: ReturnType<typeof keyEncryptionSettings>;
  rateLimitPerGrant: number;
  rateLimitPerSource: number;
  /** Whose account the hosted pages are about: IDP_DISPLAY_NAME, when set, and the issuer's host. */
  provider: Provider;
  /** The credential issuer wallets are authorized for, when one is configured. */
  credentialIssuer: { url: string; clientId: string } | undefined;
  /** How mail leaves: through SMTP, or into the local outbox (/dev/outbox). */
  mail: MailSettings;
  /** The key of actions' nullifiers: ACTION_NULLIFIER_SECRET, or one derived from IDP_SECRET. */
  nullifierSecret: string;
  /** WebAuthn's relying party: this service's host name (RP ID, no port) and origin, and the attestation roots trusted as hardware. */
  passkeys: PasskeySettings;
};

export interface PasskeySettings {
  rpId: string;
  origin: string;
  attestationRoots: string[];
}

/**
 * `outbox.anyPeer`: MAIL_OUTBOX=local said so; a loopback PUBLIC_URL alone shows the outbox to this
 * machine's own connections only, since npm start listens on every interface.
 */
export type MailSettings = { from: string } & ({ transport: 'smtp'; url: string } | { transport: 'outbox'; anyPeer: boolean });

/** A host only this machine reaches: mail kept on a page there is seen by nobody else. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

function mailSettings(
  config: { SMTP_URL?: string | undefined; MAIL_FROM?: string | undefined; MAIL_OUTBOX?: 'local' | undefined; IDP_DISPLAY_NAME?: string | undefined },
  issuer: string,
): MailSettings {
  const host = new URL(issuer).hostname;
  // An address literal is no mail domain: a local deployment's mail comes from localhost.
  const domain = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(host) && !/^[\d.]+$/.test(host) ? host : 'localhost';
  const from = config.MAIL_FROM ?? `"${(config.IDP_DISPLAY_NAME ?? new URL(issuer).host).replace(/["\\]/g, '')}" <no-reply@${domain}>`;
  if (config.SMTP_URL && config.MAIL_OUTBOX)
    throw new ConfigError('Invalid configuration: MAIL_OUTBOX: mail goes out through SMTP_URL; unset MAIL_OUTBOX (no outbox is kept where mail is sent)');
  if (config.SMTP_URL) return { from, transport: 'smtp', url: config.SMTP_URL };
  if (config.MAIL_OUTBOX !== 'local' && !isLoopbackHost(host))
    throw new ConfigError(
      `Invalid configuration: SMTP_URL: required where PUBLIC_URL (${issuer}) is not a loopback address: sign-up links are mailed. On a deployment only you can reach, MAIL_OUTBOX=local keeps mail on /dev/outbox instead`,
    );
  return { from, transport: 'outbox', anyPeer: config.MAIL_OUTBOX === 'local' };
}

/** Every variable this service reads, for checks of deployment manifests. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZConfig.shape);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(ZConfig, environment);
  const kek = keyEncryptionSettings(config, 'IDP_SIGNING_KEY_KEK');
  const sandbox = config.SVC_ENVIRONMENT === 'sandbox';
  // A sandbox beside production on one machine: its own port unless one is given.
  if (sandbox && blank(environment.PORT) === undefined) config.PORT = SANDBOX_PORT;
  // The issuer identifier has no trailing slash (RFC 8414 §2).
  const issuer = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const trimmed = (url: string | undefined) => url?.replace(/\/+$/, '');
  const baseUrls: BaseUrls = sandbox
    ? { sandbox: issuer, production: trimmed(config.PRODUCTION_BASE_URL) }
    : { production: issuer, sandbox: trimmed(config.SANDBOX_BASE_URL) };
  const rateLimitPerGrant = config.RATE_LIMIT_PER_GRANT ?? Math.ceil(config.RATE_LIMIT_DEFAULT / 10);
  if (rateLimitPerGrant > config.RATE_LIMIT_DEFAULT)
    throw new ConfigError(
      `Invalid configuration: RATE_LIMIT_PER_GRANT: must be at most RATE_LIMIT_DEFAULT, ${config.RATE_LIMIT_DEFAULT} (got ${rateLimitPerGrant})`,
    );
  // The certificate header is honoured only from the proxies TRUST_PROXY names; with none named
  // (or every peer trusted) any client could write it.
  if (config.WALLET_ATTESTATION_REQUIRED && config.WALLET_PROVIDERS.length === 0)
    throw new ConfigError('Invalid configuration: WALLET_ATTESTATION_REQUIRED: needs WALLET_PROVIDERS, or no wallet could ever be attested');
  if (config.MTLS_CLIENT_CERT_HEADER && (config.TRUST_PROXY === undefined || typeof config.TRUST_PROXY === 'boolean'))
    throw new ConfigError(
      'Invalid configuration: MTLS_CLIENT_CERT_HEADER: set TRUST_PROXY to the addresses (or the hop count) of the proxy that passes client certificates; the header is honoured only from it',
    );
  const rateLimitPerSource = config.RATE_LIMIT_PER_SOURCE ?? Math.max(rateLimitPerGrant, Math.ceil(config.RATE_LIMIT_DEFAULT / 4));
  if (rateLimitPerSource < rateLimitPerGrant || rateLimitPerSource > config.RATE_LIMIT_DEFAULT)
    throw new ConfigError(
      `Invalid configuration: RATE_LIMIT_PER_SOURCE: must be between RATE_LIMIT_PER_GRANT, ${rateLimitPerGrant}, and RATE_LIMIT_DEFAULT, ${config.RATE_LIMIT_DEFAULT} (got ${rateLimitPerSource})`,
    );
  if ((config.CREDENTIAL_ISSUER_URL === undefined) !== (config.CREDENTIAL_ISSUER_CLIENT_ID === undefined))
    throw new ConfigError('Invalid configuration: CREDENTIAL_ISSUER_URL and CREDENTIAL_ISSUER_CLIENT_ID: set both, or neither');
  const credentialIssuer =
    config.CREDENTIAL_ISSUER_URL && config.CREDENTIAL_ISSUER_CLIENT_ID
      ? { url: trimmed(config.CREDENTIAL_ISSUER_URL)!, clientId: config.CREDENTIAL_ISSUER_CLIENT_ID }
      : undefined;
  // The access tokens' audience: this service's data API (RFC 9068 §3, RFC 8707 resource).
  const signup = config.CONSOLE_SIGNUP ?? (sandbox ? 'open' : 'invite');
  const mail = mailSettings(config, issuer);
  // Whose account the hosted pages are about: a name only where the operator gave one (a default
  // such as "Identity provider" read as a proper noun: "signed out of Identity provider").
  const provider: Provider = { name: config.IDP_DISPLAY_NAME, host: new URL(issuer).host };
  // A key of its own even when derived: a nullifier says nothing of the CSRF or pairwise keys.
  const nullifierSecret =
    config.ACTION_NULLIFIER_SECRET ?? createHmac('sha256', `nullifier:${config.IDP_SECRET}`).update('action nullifiers').digest('base64url');
  return {
    ...config,
    issuer,
    baseUrls,
    signup,
    resource: `${issuer}/v2`,
    kek,
    rateLimitPerGrant,
    rateLimitPerSource,
    credentialIssuer,
    mail,
    provider,
    nullifierSecret,
    passkeys: { rpId: new URL(issuer).hostname, origin: new URL(issuer).origin, attestationRoots: config.PASSKEY_ATTESTATION_ROOTS ?? [] },
  };
}
