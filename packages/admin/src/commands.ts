import { revokeAuthorizationAsOperator } from './authorizations.js';
import type { ParseArgsConfig } from 'node:util';
import type { Acr } from '@svc/schemas';
import { createAction, deleteAction, listActions } from './actions.js';
import { createApiKey, disableApiKey, rotateApiKey, setApiKeyLimits } from './api-keys.js';
import { createClient } from './clients.js';
import { issuerLinkEnvLines, linkIssuerCommand } from './issuer-link-command.js';
import { checkedMetadata, registerClient } from './registration.js';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { listApiKeys, listClients, listOrgs, listUsers, showApiKey, showClient, showOrg, showUser } from './listings.js';
import { addMember, createOrg } from './orgs.js';
import { addCredential, createUser, registerWallet, removeWallet, setPalmVerified } from './users.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  summary: string;
  options: Options;
  required: string[];
  /**
   * Secret options and the environment variable each may come from instead, so secrets need not
   * land in shell history: `--<name>` on the command line (kept for scripts), `--<name>-stdin`
   * (the first line of standard input), or the variable.
   */
  secrets?: Record<string, string>;
  run(ctx: AdminContext, values: Values): Promise<unknown>;
  /** The answer as text instead of JSON, when the command line asks for it (undefined: JSON). */
  text?(result: unknown, values: Values): string | undefined;
}

const str = { type: 'string' } as const;
const many = { type: 'string', multiple: true } as const;
const flag = { type: 'boolean' } as const;

const s = (v: Values, k: string) => v[k] as string;
const opt = (v: Values, k: string) => v[k] as string | undefined;

/** A whole number flag; anything else is the operator's mistake, said in one line. */
function int(values: Values, name: string): number | undefined {
  const raw = values[name] as string | undefined;
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new AdminError(`--${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

// Key generation pulls in the BLS12-381 curve, whose set-up is a tenth of a second: loaded only by
// the commands that make keys, so every other call stays quick.
const keys = () => import('./signing-keys.js');

export const COMMANDS: Record<string, Command> = {
  'user:create': {
    summary: 'create a user: --email (--password P | --password-stdin | env SVC_ADMIN_PASSWORD) [--wallet ADDR]... [--palm-verified]',
    options: { email: str, password: str, 'password-stdin': flag, wallet: many, 'palm-verified': flag },
    required: ['email', 'password'],
    secrets: { password: 'SVC_ADMIN_PASSWORD' },
    run: (ctx, v) =>
      createUser(ctx, { email: s(v, 'email'), password: s(v, 'password'), wallets: (v.wallet as string[]) ?? [], palmVerified: v['palm-verified'] === true }),
  },
  'user:credential': {
    summary:
      'add a credential: --email --source --claims JSON [--expires-at ISO] [--status valid|pending|revoked] [--self-registered-ok] (to an account its holder made: checked it is the person)',
    options: { email: str, source: str, claims: str, 'expires-at': str, status: str, 'self-registered-ok': flag },
    required: ['email', 'source', 'claims'],
    run: (ctx, v) =>
      addCredential(ctx, {
        email: s(v, 'email'),
        source: s(v, 'source'),
        claims: s(v, 'claims'),
        expiresAt: opt(v, 'expires-at'),
        status: opt(v, 'status'),
        selfRegisteredOk: v['self-registered-ok'] === true,
      }),
  },
  'user:palm': {
    summary: "set a user's palm verification: --email [--revoke] [--self-registered-ok] (to an account its holder made: checked it is the person)",
    options: { email: str, revoke: flag, 'self-registered-ok': flag },
    required: ['email'],
    run: (ctx, v) => setPalmVerified(ctx, { email: s(v, 'email'), verified: v.revoke !== true, selfRegisteredOk: v['self-registered-ok'] === true }),
  },
  'wallet:register': {
    summary: 'register a wallet to a user: --email --wallet ADDR [--primary] [--self-registered-ok] (to an account its holder made: checked it is the person)',
    options: { email: str, wallet: str, primary: flag, 'self-registered-ok': flag },
    required: ['email', 'wallet'],
    run: (ctx, v) =>
      registerWallet(ctx, { email: s(v, 'email'), wallet: s(v, 'wallet'), primary: v.primary === true, selfRegisteredOk: v['self-registered-ok'] === true }),
  },
  'wallet:remove': {
    summary: 'remove a wallet: --wallet ADDR',
    options: { wallet: str },
    required: ['wallet'],
    run: (ctx, v) => removeWallet(ctx, { wallet: s(v, 'wallet') }),
  },
  'authorization:revoke': {
    summary: "revoke a user's authorization of an application as the operator: --id (its tokens are refused; the organization is told)",
    options: { id: str },
    required: ['id'],
    run: (ctx, v) => revokeAuthorizationAsOperator(ctx, { id: s(v, 'id') }),
  },
  'org:create': {
    summary: 'create an organization: --name --owner-email',
    options: { name: str, 'owner-email': str },
    required: ['name', 'owner-email'],
    run: (ctx, v) => createOrg(ctx, { name: s(v, 'name'), ownerEmail: s(v, 'owner-email') }),
  },
  'org:add-member': {
    summary: 'add a member: --org ID --email --role owner|developer',
    options: { org: str, email: str, role: str },
    required: ['org', 'email', 'role'],
    run: (ctx, v) => addMember(ctx, { org: s(v, 'org'), email: s(v, 'email'), role: s(v, 'role') }),
  },
  'client:create': {
    summary:
      'create an OAuth client: --org --name --redirect-uri URI... --scopes "a b" [--public] [--requires-palm-verification] [--preset-cache-ttl S] [--access-token-ttl S] [--require-dpop] [--require-par] [--post-logout-redirect-uri URI...] [--backchannel-logout-uri URI] [--jwks JSON | --jwks-uri URL] (with keys: private_key_jwt, no secret) [--default-acr-values "phr"] [--default-max-age S] [--sensitive-data-acr phr] [--sensitive-data-max-age S]',
    options: {
      org: str,
      name: str,
      'redirect-uri': many,
      scopes: str,
      public: flag,
      'requires-palm-verification': flag,
      'preset-cache-ttl': str,
      'access-token-ttl': str,
      'require-dpop': flag,
      'require-par': flag,
      'post-logout-redirect-uri': many,
      'backchannel-logout-uri': str,
      jwks: str,
      'jwks-uri': str,
      'default-acr-values': str,
      'default-max-age': str,
      'sensitive-data-acr': str,
      'sensitive-data-max-age': str,
    },
    required: ['org', 'name', 'redirect-uri', 'scopes'],
    run: (ctx, v) =>
      createClient(ctx, {
        org: s(v, 'org'),
        name: s(v, 'name'),
        redirectUris: v['redirect-uri'] as string[],
        scopes: s(v, 'scopes'),
        public: v.public === true,
        requiresPalmVerification: v['requires-palm-verification'] === true,
        presetCacheTtl: int(v, 'preset-cache-ttl'),
        accessTokenTtl: int(v, 'access-token-ttl'),
        requireDpop: v['require-dpop'] === true,
        requirePushedAuthorization: v['require-par'] === true,
        postLogoutRedirectUris: v['post-logout-redirect-uri'] as string[] | undefined,
        backchannelLogoutUri: opt(v, 'backchannel-logout-uri'),
        jwks: opt(v, 'jwks'),
        jwksUri: opt(v, 'jwks-uri'),
        signInPolicy: {
          default_acr_values: opt(v, 'default-acr-values')?.split(' ').filter(Boolean) as Acr[] | undefined,
          default_max_age: int(v, 'default-max-age'),
          sensitive_data_acr: opt(v, 'sensitive-data-acr') as Acr | undefined,
          sensitive_data_max_age: int(v, 'sensitive-data-max-age'),
        },
      }),
  },
  'client:register': {
    summary:
      'register an OAuth client from RFC 7591 client metadata: --org --metadata JSON (redirect_uris, token_endpoint_auth_method, client_name, scope, jwks…); prints the RFC 7591 registration response with its registration access token (PUBLIC_URL: with registration_client_uri)',
    options: { org: str, metadata: str },
    required: ['org', 'metadata'],
    run: (ctx, v) => {
      let metadata: unknown;
      try {
        metadata = JSON.parse(s(v, 'metadata'));
      } catch {
        throw new AdminError('--metadata is not valid JSON');
      }
      const issuer = process.env.PUBLIC_URL?.replace(/\/+$/, '') || undefined;
      return registerClient(ctx, { org: s(v, 'org'), metadata: checkedMetadata(metadata), issuer });
    },
  },
  'apikey:create': {
    summary: 'create an API key: --org --permissions a,b [--hourly-limit N] [--burst-limit N] [--name] (limits up to API_KEY_MAX_*_LIMIT)',
    options: { org: str, permissions: str, 'hourly-limit': str, 'burst-limit': str, name: str },
    required: ['org', 'permissions'],
    run: (ctx, v) =>
      createApiKey(ctx, {
        org: s(v, 'org'),
        permissions: s(v, 'permissions'),
        name: opt(v, 'name'),
        hourlyLimit: int(v, 'hourly-limit'),
        burstLimit: int(v, 'burst-limit'),
      }),
  },
  'apikey:disable': {
    summary: 'disable an API key: --id',
    options: { id: str },
    required: ['id'],
    run: (ctx, v) => disableApiKey(ctx, { id: s(v, 'id') }),
  },
  'apikey:rotate': {
    summary: 'replace an API key with a new one (same permissions and limits): --id',
    options: { id: str },
    required: ['id'],
    run: (ctx, v) => rotateApiKey(ctx, { id: s(v, 'id') }),
  },
  'apikey:limits': {
    summary: "change an API key's limits: --id [--hourly-limit N] [--burst-limit N] (up to API_KEY_MAX_*_LIMIT)",
    options: { id: str, 'hourly-limit': str, 'burst-limit': str },
    required: ['id'],
    run: (ctx, v) => setApiKeyLimits(ctx, { id: s(v, 'id'), hourlyLimit: int(v, 'hourly-limit'), burstLimit: int(v, 'burst-limit') }),
  },
  'action:create': {
    summary:
      'register an action counted per person (one human, one action): --org ID --action NAME [--description TEXT] [--max-per-person N] [--period day|week|month|never] [--without-palm-verification] (defaults: 1, never, palm-verified people only)',
    options: { org: str, action: str, description: str, 'max-per-person': str, period: str, 'without-palm-verification': flag },
    required: ['org', 'action'],
    run: (ctx, v) =>
      createAction(ctx, {
        org: s(v, 'org'),
        action: s(v, 'action'),
        description: opt(v, 'description'),
        maxPerPerson: int(v, 'max-per-person'),
        period: opt(v, 'period'),
        requiresPalmVerification: v['without-palm-verification'] !== true,
      }),
  },
  'action:list': {
    summary: "list an organization's actions, oldest first: --org ID",
    options: { org: str },
    required: ['org'],
    run: (ctx, v) => listActions(ctx, { org: s(v, 'org') }),
  },
  'action:delete': {
    summary: 'delete an action and every count of it (registered again, it starts afresh): --org ID --action NAME',
    options: { org: str, action: str },
    required: ['org', 'action'],
    run: (ctx, v) => deleteAction(ctx, { org: s(v, 'org'), action: s(v, 'action') }),
  },
  'keys:rotate': {
    summary: 'rotate a signing key: --service identity-provider|credential-issuer [--activate-in SECONDS]',
    options: { service: str, 'activate-in': str },
    required: ['service'],
    run: async (ctx, v) => (await keys()).rotateSigningKey(ctx, { service: s(v, 'service'), activateInSeconds: int(v, 'activate-in') }),
  },
  'keys:rewrap': {
    summary:
      'seal a service’s stored signing keys (and the identity provider’s webhook secrets) under its own KEK, IDP_SIGNING_KEY_KEK or ISSUER_SIGNING_KEY_KEK (after rotating it, with the old one in its _PREVIOUS variable; or to migrate off the shared SIGNING_KEY_KEK, still set): --service identity-provider|credential-issuer',
    options: { service: str },
    required: ['service'],
    run: async (ctx, v) => (await keys()).rewrapKeys(ctx, { service: s(v, 'service') }),
  },
  'user:list': {
    summary: 'list users, newest first: [--limit N]',
    options: { limit: str },
    required: [],
    run: (ctx, v) => listUsers(ctx, { limit: int(v, 'limit') }),
  },
  'user:show': {
    summary: 'one user with wallets, credentials (claim names, not values) and organizations: --email',
    options: { email: str },
    required: ['email'],
    run: (ctx, v) => showUser(ctx, { email: s(v, 'email') }),
  },
  'org:list': {
    summary: 'list organizations with their owner and counts: [--limit N]',
    options: { limit: str },
    required: [],
    run: (ctx, v) => listOrgs(ctx, { limit: int(v, 'limit') }),
  },
  'org:show': {
    summary: 'one organization with its members, clients and API keys: --id',
    options: { id: str },
    required: ['id'],
    run: (ctx, v) => showOrg(ctx, { id: s(v, 'id') }),
  },
  'client:list': {
    summary: 'list OAuth clients: [--org ID] [--limit N]',
    options: { org: str, limit: str },
    required: [],
    run: (ctx, v) => listClients(ctx, { org: opt(v, 'org'), limit: int(v, 'limit') }),
  },
  'client:show': {
    summary: 'one OAuth client (never its secret): --client-id',
    options: { 'client-id': str },
    required: ['client-id'],
    run: (ctx, v) => showClient(ctx, { clientId: s(v, 'client-id') }),
  },
  'apikey:list': {
    summary: 'list API keys (prefix, permissions, limits, last use; never the key): [--org ID] [--limit N]',
    options: { org: str, limit: str },
    required: [],
    run: (ctx, v) => listApiKeys(ctx, { org: opt(v, 'org'), limit: int(v, 'limit') }),
  },
  'apikey:show': {
    summary: 'one API key (never the key itself): --id',
    options: { id: str },
    required: ['id'],
    run: (ctx, v) => showApiKey(ctx, { id: s(v, 'id') }),
  },
  'issuer:link': {
    summary:
      'link the credential issuer to this identity provider, as one deployment (run on every deploy): --issuer-url URL --idp-url URL [--client-id ID] [--org ID] [--client-secret S] [--rotate-client-secret] [--webhook-secret S] [--rotate-webhook-secret] [--without-approval-events] [--env]; the first run makes the issuer’s client, its organization and its approval-events endpoint, later ones find them; prints both services’ settings (--env: as VAR=value lines)',
    options: {
      'issuer-url': str,
      'idp-url': str,
      'client-id': str,
      org: str,
      'client-secret': str,
      'client-secret-stdin': flag,
      'rotate-client-secret': flag,
      'webhook-secret': str,
      'rotate-webhook-secret': flag,
      'without-approval-events': flag,
      env: flag,
    },
    required: ['issuer-url', 'idp-url'],
    secrets: { 'client-secret': 'AUTHORIZATION_SERVER_CLIENT_SECRET', 'webhook-secret': 'AUTHORIZATION_SERVER_WEBHOOK_SECRET' },
    run: (ctx, v) =>
      linkIssuerCommand(ctx, {
        issuerUrl: s(v, 'issuer-url'),
        authorizationServerUrl: s(v, 'idp-url'),
        clientId: opt(v, 'client-id'),
        organization: opt(v, 'org'),
        clientSecret: opt(v, 'client-secret'),
        rotateClientSecret: v['rotate-client-secret'] === true,
        webhookSecret: opt(v, 'webhook-secret'),
        rotateWebhookSecret: v['rotate-webhook-secret'] === true,
        approvalEvents: v['without-approval-events'] !== true,
      }),
    text: (result, v) => (v.env === true ? issuerLinkEnvLines(result as Awaited<ReturnType<typeof linkIssuerCommand>>) : undefined),
  },
  'seed:demo': {
    summary: 'create the demo organization, users, clients and API keys',
    options: {},
    required: [],
    run: async (ctx) => (await import('./seed.js')).seedDemo(ctx),
  },
};
