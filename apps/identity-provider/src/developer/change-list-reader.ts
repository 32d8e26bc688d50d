import { readAuthorization } from '@svc/http';
import type { Request, RequestHandler } from 'express';
import { requireClientToken } from '../access-token-guard/access-token-guard.js';
import { checkedClient } from '../clients/require-client.js';
import { developerAuthRequired } from '../errors.js';
import { optionalSession } from '../sessions/session-cookie.js';
import type { DeveloperDeps } from './deps.js';
import { bearerToken, checkedDeveloper, isPersonalAccessToken } from './developer-auth.js';
import { membershipOf } from './organizations.js';

/** Who reads an organization's change list (/v2/authorizations): the organization it speaks for. */
export interface ChangeListReader {
  organizationId: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Left by requireChangeListReader. */
    changeListReader?: ChangeListReader;
  }
}

/**
 * A client (HTTP Basic, or the client's own client_credentials token with authorizations:read), or
 * a developer (session or personal access token): each speaks for its organization. A read, so a
 * session cookie needs no CSRF token.
 */
export async function checkedChangeListReader(deps: DeveloperDeps, req: Request): Promise<ChangeListReader> {
  if (req.headers.authorization?.startsWith('Basic ')) return { organizationId: (await checkedClient(deps, req, { from: 'header' })).app.organizationId };
  const presented = readAuthorization(req)?.token;
  if (presented?.split('.').length === 3) return { organizationId: (await requireClientToken(deps, req, 'authorizations:read')).organizationId };
  if (isPersonalAccessToken(bearerToken(req))) return { organizationId: (await checkedDeveloper(deps, req, { csrf: false })).organizationId };
  const session = await optionalSession(deps, req);
  if (!session) throw developerAuthRequired();
  return { organizationId: (await membershipOf(deps.db, session.userId)).organizationId };
}

/** The guard of the change list (see checkedChangeListReader): leaves the reader in `res.locals.changeListReader`. */
export function requireChangeListReader(deps: DeveloperDeps): RequestHandler {
  return async (req, res, next) => {
    res.locals.changeListReader = await checkedChangeListReader(deps, req);
    next();
  };
}
