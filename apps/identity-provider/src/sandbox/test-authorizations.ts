/**
 * Authorizations without a browser, for the sandbox's test users: what a person would do on the
 * consent page, done by the organization's own CI. The request is checked exactly as
 * /oauth/authorize checks it (client, exact redirect URI, scopes, S256 PKCE), the user approves
 * every requested scope, and the answer is the approval's: a code to exchange at /oauth/token with
 * the verifier, as usual. Also the two things a test needs that time would otherwise bring: a data
 * window that has ended (E4010), and an access token that has expired (E4041).
 */
import { isUuid, signedInAs } from '@svc/schemas';
import type { z } from 'zod';
import type { ZCreateTestAuthorizationRequest } from '@svc/schemas';
import { approvalAnswer, approve, authorizationFor, checkAuthorizeRequest, createAuthorization } from '../authorize/authorizations.js';
import { redirectUriMatches } from '../clients/redirect-uris.js';
import { applicationNotFound, authorizationConflict, authorizationNotFound, invalidRequest, RedirectableError } from '../errors.js';
import { forgetPresetData } from '../tokens/preset-cache-entry.js';
import { signAccessToken } from '../tokens/tokens.js';
import type { SandboxDeps } from './deps.js';
import type { SandboxCaller } from './sandbox-caller.js';
import { testUserOf } from './test-users.js';

export async function authorizeTestUser(deps: SandboxDeps, caller: SandboxCaller, body: z.output<typeof ZCreateTestAuthorizationRequest>) {
  const app = await deps.clients.find(body.client_id);
  // An application asking with its own credentials authorizes itself only.
  if (!app || app.organizationId !== caller.organizationId || (caller.clientId && caller.clientId !== app.clientId)) throw applicationNotFound();
  const user = await testUserOf(deps, caller.organizationId, body.user_id);
  if (!redirectUriMatches(app.redirectUris, body.redirect_uri)) throw invalidRequest('redirect_uri does not exactly match a URI registered for this client');
  // The schema lets exactly one of the two through.
  const scope = body.scope ?? body.scopes?.join(' ') ?? '';
  let scopes: string[];
  try {
    scopes = checkAuthorizeRequest(app, {
      scope,
      responseType: 'code',
      codeChallenge: body.code_challenge,
      codeChallengeMethod: body.code_challenge_method,
    });
  } catch (err) {
    // Nothing to redirect to here: the same refusal, as a JSON error.
    throw err instanceof RedirectableError ? invalidRequest(err.description) : err;
  }
  const now = deps.clock.now();
  const created = await createAuthorization(deps.db, {
    app,
    redirectUri: body.redirect_uri,
    request: { scope, responseType: 'code', codeChallenge: body.code_challenge, codeChallengeMethod: 'S256', state: body.state, nonce: body.nonce },
    scopes,
    userId: user.id,
    now,
  });
  const authorization = await authorizationFor(deps.db, created.id, user.id);
  const { code, codeExpiresAt, granted } = await approve(
    { db: deps.db, cache: deps.store.cache, secret: deps.config.IDP_SECRET, environment: deps.environment },
    {
      authorization,
      chosen: undefined,
      // As the test user is said to have signed in, so that step-up and max_age can be tried.
      user: {
        userId: user.id,
        palmVerified: user.palmVerified,
        authTime: new Date(now.getTime() - body.signed_in_seconds_ago * 1000),
        ...signedInAs(body.acr),
      },
      now,
    },
  );
  return approvalAnswer(authorization, { code, codeExpiresAt, granted, userId: user.id, secret: deps.config.IDP_SECRET, issuer: deps.config.issuer });
}

/** An approved (or exchanged) authorization of one of the organization's applications (the asking application's, for an application). */
async function grantOf(deps: SandboxDeps, caller: SandboxCaller, id: string) {
  const a = isUuid(id) ? await deps.db.authorization.findUnique({ where: { id }, include: { application: true } }) : null;
  if (!a || a.application.organizationId !== caller.organizationId || (caller.clientId && caller.clientId !== a.application.clientId)) {
    throw authorizationNotFound();
  }
  if ((a.status !== 'approved' && a.status !== 'consumed') || !a.approvedAt || !a.userId) {
    throw authorizationConflict(`The authorization is ${a.status}: only an approved one has a data window`);
  }
  return { ...a, approvedAt: a.approvedAt, userId: a.userId };
}

/**
 * The data window ends now: the approval is moved back by the window's length, which every
 * replica's grant cache hears of (the Authorization trigger), and the cached preset values go.
 */
export async function endDataWindow(deps: SandboxDeps, caller: SandboxCaller, id: string) {
  const a = await grantOf(deps, caller, id);
  const now = deps.clock.now();
  const approvedAt = new Date(now.getTime() - a.application.presetCacheTtlSeconds * 1000);
  if (a.approvedAt > approvedAt) {
    await deps.db.authorization.update({ where: { id: a.id }, data: { approvedAt } });
    deps.tokens.grants.announce('a', a.id);
  }
  await forgetPresetData(deps.store.cache, a.id);
  return {
    authorization_id: a.id,
    data_window_ended_at: new Date(Math.min(now.getTime(), a.approvedAt.getTime() + a.application.presetCacheTtlSeconds * 1000)).toISOString(),
  };
}

/** How long ago the token handed out by expiredAccessToken stopped working: past any verifier's clock leeway. */
const EXPIRED_SECONDS_AGO = 3600;

/**
 * A real access token of the authorization, signed by this sandbox, whose lifetime ended an hour
 * ago (issued as if by a clock that far back): presented anywhere, it answers E4041.
 */
export async function expiredAccessToken(deps: SandboxDeps, caller: SandboxCaller, id: string) {
  const a = await grantOf(deps, caller, id);
  const now = deps.clock.now().getTime();
  const issuedAt = now - (a.application.accessTokenTtlSeconds + EXPIRED_SECONDS_AGO) * 1000;
  const token = await signAccessToken(
    { ...deps.tokens, clock: { now: () => new Date(issuedAt) } },
    { app: a.application, authorization: a, scopes: a.grantedScopes },
  );
  return { access_token: token, token_type: 'Bearer' as const, expired_at: new Date(now - EXPIRED_SECONDS_AGO * 1000).toISOString() };
}
