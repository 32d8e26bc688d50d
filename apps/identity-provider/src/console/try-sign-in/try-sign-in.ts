/**
 * "Try a sign-in": the console runs the authorization code flow with PKCE for one of the
 * developer's applications, ending at this service's own callback, and shows what came back.
 *
 * How it stays the developer's alone:
 * - The authorization is recorded here, as /oauth/authorize would after its checks, with the
 *   console's callback as redirect URI. /oauth/authorize still takes only registered URIs, so no
 *   one can start a flow that ends at the callback; only a signed-in developer's CSRF-checked form
 *   can, for an application of their own organization.
 * - State, PKCE verifier and nonce never leave the server: they are kept in the store under the
 *   hash of a random binding set as an HttpOnly, SameSite=Strict cookie scoped to the callback.
 *   The callback needs that cookie and the state, compared in constant time; the record is taken
 *   once, so a replayed or foreign state finds nothing and changes nothing. It is not kept under
 *   the console session, because signing a test user in replaces that session in the browser.
 * - A confidential client's secret is unknown here (only its hash is stored), so the console does
 *   not authenticate at /oauth/token: it exchanges the code inside this service as the client,
 *   through the same exchangeCode the token endpoint uses, with the PKCE verifier it kept. A code
 *   is bound to its client, redirect URI and verifier, so only this flow's code can be exchanged
 *   so, and the client's budget is charged as at the token endpoint. For a client whose tokens must
 *   be sender-constrained, they are bound to a DPoP key the console makes for the try and forgets.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { NotFoundError } from '@svc/http';
import { CLIENT_SCOPES } from '@svc/schemas';
import { constantTimeEqual, randomBase62, sha256Hex } from '@svc/secrets';
import { calculateJwkThumbprint, decodeJwt, type JWK } from 'jose';
import { applicationOf } from '../../applications/applications.js';
import { createAuthorization, PENDING_TTL_SECONDS } from '../../authorize/authorizations.js';
import { isFapi } from '../../clients/fapi.js';
import type { Application } from '../../clients/application.js';
import { TRY_CALLBACK_PATH } from '../../consent/fresh-sign-in.js';
import type { Developer } from '../../developer/developer-auth.js';
import { membershipOf } from '../../developer/organizations.js';
import { OAuthError } from '../../errors.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import { exchangeCode } from '../../tokens/grants/authorization-code.js';

export { TRY_CALLBACK_PATH };
/** The cookie that binds a try to the browser that started it. */
export const TRY_COOKIE = 'svc_console_try';

/** What a try keeps between its start and its callback. */
interface TryRecord {
  userId: string;
  organizationId: string;
  clientId: string;
  authorizationId: string;
  state: string;
  verifier: string;
  nonce: string;
}

const recordKey = (binding: string) => `console-try:${sha256Hex(binding)}`;
const callbackOf = (issuer: string) => `${issuer}${TRY_CALLBACK_PATH}`;

/** The scopes a try asks for: every user scope the application may ask for. */
const userScopes = (app: Application) => app.allowedScopes.filter((s) => !(CLIENT_SCOPES as readonly string[]).includes(s));

/** Starts a try: the pending authorization, its record, and the binding for the browser's cookie. */
export async function startTry(deps: SandboxDeps, developer: Developer, clientId: string) {
  const app = await applicationOf(deps, developer, clientId);
  if (app.status !== 'active') throw new NotFoundError('This application is revoked', 'not_found');
  const scopes = userScopes(app);
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'This application may ask for no user scope, so there is no sign-in to try');
  const verifier = randomBase62(64);
  const state = randomBase62(32);
  const nonce = randomBase62(22);
  const authorization = await createAuthorization(deps.db, {
    app,
    redirectUri: callbackOf(deps.config.issuer),
    request: {
      scope: scopes.join(' '),
      responseType: 'code',
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
      state,
      nonce,
    },
    scopes,
    userId: undefined,
    now: deps.clock.now(),
  });
  const binding = randomBase62(43);
  const record: TryRecord = {
    userId: developer.userId,
    organizationId: developer.organizationId,
    clientId: app.clientId,
    authorizationId: authorization.id,
    state,
    verifier,
    nonce,
  };
  await deps.store.cache.set(recordKey(binding), JSON.stringify(record), PENDING_TTL_SECONDS);
  return { binding, consentUrl: `/consent?authorization_id=${authorization.id}` };
}

/** Why a callback is refused: said to the developer, and nothing has changed. */
export class TryRefused extends Error {
  override name = 'TryRefused';
}

/** What the callback carried, already shaped by its schema. */
export interface TryCallback {
  code?: string | undefined;
  state: string;
  iss?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

/** What the page shows: the code, the exchange as a client would send it (secrets redacted), the answer. */
export interface TryOutcome {
  application: { name: string; clientId: string };
  code?: string;
  error?: { error: string; description?: string | undefined };
  exchange?: { request: string; response: Record<string, unknown>; idTokenClaims?: Record<string, unknown>; nonceMatches?: boolean };
  exchangeError?: { error: string; description: string };
}

/** The token request the client would send, with its secret, assertion or proof redacted. */
function exchangeRequest(app: Application, issuer: string, code: string, verifier: string, dpop: boolean): string {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callbackOf(issuer), code_verifier: verifier });
  const headers = ['Content-Type: application/x-www-form-urlencoded'];
  switch (app.tokenEndpointAuthMethod) {
    case 'client_secret_basic':
      headers.unshift(`Authorization: Basic base64(${app.clientId}:[client secret redacted])`);
      break;
    case 'client_secret_post':
      form.set('client_id', app.clientId);
      form.set('client_secret', '[redacted]');
      break;
    case 'private_key_jwt':
      form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      form.set('client_assertion', '[a JWT signed with the client’s private key, redacted]');
      break;
    default:
      form.set('client_id', app.clientId);
  }
  if (dpop) headers.push('DPoP: [a proof signed with a key the console made for this try, redacted]');
  return `POST ${issuer}/oauth/token\n${headers.join('\n')}\n\n${form.toString().replaceAll('%5B', '[').replaceAll('%5D', ']')}`;
}

/** The thumbprint of a fresh key (RFC 7638), for a client whose tokens must be sender-constrained. */
async function throwawayKeyThumbprint(): Promise<string> {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as JWK);
}

/**
 * Finishes a try: the browser's binding and the state must match a try this service started; the
 * record is taken once. Then the code is exchanged as the client (see above).
 */
export async function finishTry(deps: SandboxDeps, binding: string | undefined, callback: TryCallback): Promise<TryOutcome> {
  const refuse = () =>
    new TryRefused(
      'This callback belongs to no sign-in this console started in this browser, or that sign-in has finished or expired. Start it again from the console.',
    );
  if (!binding || binding.length > 100) throw refuse();
  const key = recordKey(binding);
  const stored = await deps.store.cache.get(key);
  const record = stored ? (JSON.parse(stored) as TryRecord) : undefined;
  if (!record || !constantTimeEqual(record.state, callback.state)) throw refuse();
  // Taken once: of two callbacks racing with the same state, one deletes the record and goes on.
  if ((await deps.store.cache.delete(key)) !== 1) throw refuse();
  if (callback.iss !== undefined && callback.iss !== deps.config.issuer)
    throw new TryRefused('iss names another issuer (RFC 9207): this answer is not from this service');
  // The developer who started it must still belong to the organization that owns the application.
  const membership = await membershipOf(deps.db, record.userId).catch(() => undefined);
  if (membership?.organizationId !== record.organizationId) throw refuse();
  const app = await applicationOf(deps, { userId: record.userId, organizationId: record.organizationId, role: membership.role }, record.clientId).catch(
    () => undefined,
  );
  if (app?.status !== 'active') throw refuse();
  const application = { name: app.name, clientId: app.clientId };
  if (callback.error !== undefined) return { application, error: { error: callback.error, description: callback.error_description } };
  if (callback.code === undefined) throw new TryRefused('The callback carries neither code nor error');
  const constrained = app.requiresDpop || isFapi(app) || app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth';
  const request = exchangeRequest(app, deps.config.issuer, callback.code, record.verifier, constrained);
  try {
    if (!app.isPublic) await deps.limits.tokens(app.clientId);
    const response = (await exchangeCode(
      deps.tokens,
      app,
      { code: callback.code, redirectUri: callbackOf(deps.config.issuer), codeVerifier: record.verifier },
      {
        jkt: constrained ? await throwawayKeyThumbprint() : undefined,
        x5t: undefined,
        admit: app.isPublic ? (holder) => deps.limits.tokens(app.clientId, holder) : async () => undefined,
      },
    )) as Record<string, unknown>;
    const idToken = typeof response.id_token === 'string' ? decodeJwt(response.id_token) : undefined;
    return {
      application,
      code: callback.code,
      exchange: { request, response, ...(idToken ? { idTokenClaims: idToken, nonceMatches: idToken.nonce === record.nonce } : {}) },
    };
  } catch (err) {
    if (!(err instanceof OAuthError) || err.status >= 500) throw err;
    return { application, code: callback.code, exchange: undefined, exchangeError: { error: err.code, description: err.description } };
  }
}
