/**
 * prompt=none (OpenID Connect Core §3.1.2.1): no page may be shown, so the answer is decided here
 * and sent back to the client at once. A code only for a person already signed in well enough, who
 * has approved these scopes for this client before, under an approval whose data window is still
 * open (an ended window is the point where the person must be asked again); else the error that
 * says which page would have been needed.
 */
import { HttpError } from '@svc/http';
import type { Application } from '../clients/application.js';
import type { SessionUser } from '../sessions/sessions.js';
import { approve, authorizationFor, createAuthorization, redirectWith } from './authorizations.js';
import type { AuthorizeDeps } from './deps.js';
import type { PushedRequest } from './pushed-requests.js';
import { judgeSignIn } from './sign-in-requirements.js';

export async function silentAnswer(
  deps: AuthorizeDeps,
  app: Application,
  checked: Omit<PushedRequest, 'clientId'>,
  user: SessionUser | undefined,
  now: Date,
): Promise<string> {
  const { issuer } = deps.config;
  const state = checked.request.state;
  const error = (code: string, description: string) => redirectWith(checked.redirectUri, issuer, { error: code, error_description: description, state });
  if (!user) return error('login_required', 'Nobody is signed in: send the person without prompt=none');
  const requirements = checked.requirements!;
  // Made now: no session is fresh for it, so max_age and acr are judged on the sign-in there is.
  const verdict = judgeSignIn(requirements, now, user, now);
  const voluntaryAcrOnly = !verdict.ok && 'need' in verdict && verdict.need === 'acr' && !requirements.acrEssential;
  if (!verdict.ok && !voluntaryAcrOnly) return error('login_required', 'The person must sign in again (max_age or acr): send them without prompt=none');
  if (checked.details?.length)
    return error('consent_required', 'Credentials for a wallet are approved on the consent page: send the person without prompt=none');
  const prior = await deps.db.authorization.findFirst({
    where: { applicationId: app.id, userId: user.userId, status: { in: ['approved', 'consumed'] }, grantedScopes: { hasEvery: checked.scopes } },
    orderBy: { approvedAt: 'desc' },
    select: { approvedAt: true },
  });
  const open = prior?.approvedAt && prior.approvedAt.getTime() + app.presetCacheTtlSeconds * 1000 > now.getTime();
  if (!open) return error('consent_required', 'The person has not approved these scopes for this application, or that approval’s data window is over');
  const created = await createAuthorization(deps.db, {
    app,
    redirectUri: checked.redirectUri,
    request: checked.request,
    scopes: checked.scopes,
    userId: user.userId,
    requirements,
    now,
  });
  const authorization = await authorizationFor(deps.db, created.id, user.userId);
  try {
    const { code } = await approve(
      { db: deps.db, cache: deps.store.cache, secret: deps.config.IDP_SECRET, environment: deps.environment },
      { authorization, chosen: checked.scopes, user, now },
    );
    return redirectWith(checked.redirectUri, issuer, { code, state });
  } catch (err) {
    // A refusal the person would have seen on a page (palm verification required, say).
    if (err instanceof HttpError && err.status < 500) return error('interaction_required', err.description);
    throw err;
  }
}
