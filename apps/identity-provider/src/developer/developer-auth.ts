/**
 * Who speaks for an organization on /v2/developer/* and /v2/sandbox/*: a developer signed in to
 * the console (session cookie, with the CSRF token on writes, or `Bearer <session_token>`), or a
 * personal access token made there (`Bearer svcpat_…`), for scripts and CI. Either way the caller
 * acts as a member of one organization with that member's role; a token outlives nothing: once
 * its owner leaves the organization it opens nothing.
 */
import type { Request, RequestHandler } from 'express';
import type { MemberRole } from '@svc/db';
import { readAuthorization } from '@svc/http';
import { sha256Hex } from '@svc/secrets';
import { developerTokenRejected, ownerOnly, sessionRequired } from '../errors.js';
import { checkedSession } from '../sessions/session-cookie.js';
import type { DeveloperDeps } from './deps.js';
import { membershipOf } from './organizations.js';

export interface Developer {
  userId: string;
  organizationId: string;
  role: MemberRole;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const PERSONAL_ACCESS_TOKEN = /^(sbx_)?svcpat_[0-9A-Za-z]{43}$/;
/** How often a token's last use is written: it shows in the console, it need not be exact. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** The bearer token of a request, if it carries one. */
export function bearerToken(req: Request): string | undefined {
  const presented = readAuthorization(req);
  return presented?.scheme === 'Bearer' ? presented.token : undefined;
}

export const isPersonalAccessToken = (token: string | undefined): token is string => token !== undefined && /^(sbx_)?svcpat_/.test(token);

declare module 'express-serve-static-core' {
  interface Locals {
    /** The developer a request speaks for, left by requireDeveloper. */
    developer?: Developer;
  }
}

/**
 * `csrf`: a write, which with the session cookie needs the session's CSRF token. `sessionOnly`:
 * what a personal access token may not do, as it would outlive or widen itself (making tokens,
 * managing members): a signed-in developer only.
 */
export interface DeveloperOptions {
  csrf: boolean;
  sessionOnly?: boolean;
}

/** The developer a request speaks for, by personal access token or session, or a 401/403. */
export async function checkedDeveloper(deps: DeveloperDeps, req: Request, options: DeveloperOptions): Promise<Developer> {
  const token = bearerToken(req);
  if (isPersonalAccessToken(token)) {
    if (options.sessionOnly)
      throw sessionRequired(
        'A personal access token cannot do this: sign in (a session) to make tokens, manage members or, in production, make or change credentials',
      );
    return personalAccessToken(deps, token);
  }
  const session = await checkedSession(deps, req, options);
  const membership = await membershipOf(deps.db, session.userId);
  return { userId: session.userId, organizationId: membership.organizationId, role: membership.role };
}

/**
 * What makes or changes a credential (an application, its secret or redirect URIs or keys, an API
 * key): in production a signed-in developer only, so a leaked personal access token cannot turn
 * itself into credentials that outlive it. In the sandbox, whose credentials never open
 * production, a token may (CI registers its test apps and keys).
 */
export const mintsCredentials = (deps: Pick<DeveloperDeps, 'environment'>): DeveloperOptions => ({ csrf: true, sessionOnly: !deps.environment.sandbox });

/**
 * The guard of a developer route: leaves the developer in `res.locals.developer`. `options` may
 * depend on the request, whose input handle() has checked by then (a change that touches
 * credentials asks more than one that does not).
 */
export function requireDeveloper(deps: DeveloperDeps, options: DeveloperOptions | ((req: Request) => DeveloperOptions)): RequestHandler {
  return async (req, res, next) => {
    const developer = await checkedDeveloper(deps, req, typeof options === 'function' ? options(req) : options);
    res.locals.developer = developer;
    // Recorded before the write runs, so the caller's next list cannot reach a replica without it.
    if (!SAFE_METHODS.has(req.method)) await deps.reads.wrote(developer.organizationId);
    next();
  };
}

/** After requireDeveloper: 403 unless the developer owns the organization (inviting members, and renaming it). */
export function requireOwner(what: string): RequestHandler {
  return (_req, res, next) => {
    if (res.locals.developer?.role !== 'owner') throw ownerOnly(what);
    next();
  };
}

async function personalAccessToken(deps: DeveloperDeps, token: string): Promise<Developer> {
  const now = deps.clock.now();
  const row = PERSONAL_ACCESS_TOKEN.test(token) ? await deps.db.personalAccessToken.findUnique({ where: { tokenHash: sha256Hex(token) } }) : null;
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) {
    throw developerTokenRejected(deps.environment.elsewhere('This personal access token', token));
  }
  const member = await deps.db.organizationMember.findUnique({
    where: { organizationId_userId: { organizationId: row.organizationId, userId: row.userId } },
  });
  if (!member) throw developerTokenRejected('The owner of this personal access token is no longer a member of its organization');
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await deps.db.personalAccessToken.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => undefined);
  }
  return { userId: row.userId, organizationId: row.organizationId, role: member.role };
}
