/**
 * The two tokens of dynamic registration, checked by route middleware: an initial access token
 * (RFC 7591 §3) registers a client for its organization; a registration access token (RFC 7592 §3)
 * manages the one client it was issued with. Guessing either counts as a failure per source
 * address, as client authentication does.
 */
import type { Request, RequestHandler } from 'express';
import { sha256Hex } from '@svc/secrets';
import type { Application } from '../clients/application.js';
import type { DeveloperDeps } from '../developer/deps.js';
import { bearerToken } from '../developer/developer-auth.js';
import { developerTokenRejected } from '../errors.js';

const INITIAL_ACCESS_TOKEN = /^(sbx_)?svciat_[0-9A-Za-z]{43}$/;
const REGISTRATION_ACCESS_TOKEN = /^(sbx_)?svcrat_[0-9A-Za-z]{43}$/;

/** Who registers: the organization of the initial access token, and the developer who made it. */
export interface Registrant {
  organizationId: string;
  createdByUserId: string | undefined;
}

/** A client under RFC 7592 management (named apart: inside the declaration below, Application is Express's). */
type ManagedClient = Application;

declare module 'express-serve-static-core' {
  interface Locals {
    /** Left by requireInitialAccessToken. */
    registrant?: Registrant;
    /** The client a registration access token manages, left by requireRegistrationToken. */
    registeredClient?: ManagedClient;
  }
}

/** A request's failures at /oauth/register, counted per source address. */
export const registrationFailures = <T>(deps: DeveloperDeps, req: Request, run: () => Promise<T>) =>
  deps.limits.guardFailures('oauth-register', req.ip ?? 'unknown', run);

/** The organization an initial access token registers for. */
export async function initialAccessTokenHolder(deps: DeveloperDeps, token: string | undefined): Promise<Registrant> {
  const row = token && INITIAL_ACCESS_TOKEN.test(token) ? await deps.db.initialAccessToken.findUnique({ where: { tokenHash: sha256Hex(token) } }) : null;
  if (!row || row.revokedAt || row.expiresAt <= deps.clock.now()) {
    throw developerTokenRejected(
      deps.environment.elsewhere('This initial access token', token) ??
        'An initial access token (Bearer svciat_…) from the developer console is required, and must not have expired',
    );
  }
  return { organizationId: row.organizationId, createdByUserId: row.createdByUserId ?? undefined };
}

/** The active client a registration access token manages; the same refusal for any mismatch. */
export async function managedClient(deps: DeveloperDeps, clientId: string, token: string | undefined): Promise<Application> {
  const app =
    token && REGISTRATION_ACCESS_TOKEN.test(token) ? await deps.db.application.findUnique({ where: { registrationTokenHash: sha256Hex(token) } }) : null;
  if (!app || app.clientId !== clientId || app.status !== 'active') {
    throw developerTokenRejected(
      deps.environment.elsewhere('This registration access token', token) ?? 'The registration access token is unknown, or not this client’s',
    );
  }
  return app;
}

/** The guard of POST /oauth/register: leaves the token's organization in `res.locals.registrant`. */
export function requireInitialAccessToken(deps: DeveloperDeps): RequestHandler {
  return async (req, res, next) => {
    res.locals.registrant = await registrationFailures(deps, req, () => initialAccessTokenHolder(deps, bearerToken(req)));
    next();
  };
}

/** The guard of /oauth/register/{client_id}: leaves the client the token manages in `res.locals.registeredClient`. */
export function requireRegistrationToken(deps: DeveloperDeps): RequestHandler {
  return async (req, res, next) => {
    const clientId = String(req.params.client_id);
    res.locals.registeredClient = await registrationFailures(deps, req, () => managedClient(deps, clientId, bearerToken(req)));
    next();
  };
}
