import type { Request, RequestHandler } from 'express';
import type { Config } from '../config.js';
import { invalidClient } from '../errors.js';
import type { Application } from './application.js';
import { authenticateGuarded, type ClientAuthDeps, type CredentialFields, credentialsFrom, type PresentedCredentials } from './client-auth.js';
import { clientCertificate } from './client-certificate.js';

/** What authenticating a client from a request needs: client authentication, and where a proxy puts the client certificate. */
export interface ClientGuardDeps extends ClientAuthDeps {
  config: Pick<Config, 'MTLS_CLIENT_CERT_HEADER'>;
}

/** A client that authenticated the request, and what it presented (a token binds to its certificate). */
export interface AuthenticatedClient {
  app: Application;
  presented: PresentedCredentials;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** The client that authenticated the request, left by requireClient (or by optionalClient, when one did). */
    client?: AuthenticatedClient;
  }
}

export interface ClientGuardOptions {
  /**
   * Where the credentials may be, beside the client certificate: anywhere (HTTP Basic or the body,
   * the default), the body only (an endpoint that never takes Basic), or the Authorization header
   * only (an endpoint whose body is not OAuth's, or that has none).
   */
  from?: 'request' | 'body' | 'header';
  /** Refuses a public client, which proves nothing, with this description. */
  confidential?: string;
}

/** What the request presents, read where `from` says (handle() has checked the body by then). */
export function presentedBy(deps: ClientGuardDeps, req: Request, from: ClientGuardOptions['from'] = 'request'): PresentedCredentials {
  const body = from === 'header' ? {} : ((req.body ?? {}) as CredentialFields);
  const authorization = from === 'body' ? undefined : req.headers.authorization;
  return { ...credentialsFrom(authorization, body), certificate: clientCertificate(deps.config, req) };
}

/** The client that authenticated the request, failures counted per client and source (authenticateGuarded), or a 401. */
export async function checkedClient(
  deps: ClientGuardDeps,
  req: Request,
  options: ClientGuardOptions = {},
  presented = presentedBy(deps, req, options.from),
): Promise<AuthenticatedClient> {
  const app = await authenticateGuarded(deps, presented, req.ip);
  if (options.confidential && app.isPublic) throw invalidClient(options.confidential, presented.method === 'basic');
  return { app, presented };
}

/** The guard of a route for clients (see checkedClient): leaves the client in `res.locals.client`. */
export function requireClient(deps: ClientGuardDeps, options: ClientGuardOptions = {}): RequestHandler {
  return async (req, res, next) => {
    res.locals.client = await checkedClient(deps, req, options);
    next();
  };
}

/**
 * Where anyone may ask and an authenticated client is told more: a request that presents no
 * credentials passes with no client; one that presents them must authenticate.
 */
export function optionalClient(deps: ClientGuardDeps, options: ClientGuardOptions = {}): RequestHandler {
  return async (req, res, next) => {
    const presented = presentedBy(deps, req, options.from);
    if (presented.method !== 'none') res.locals.client = await checkedClient(deps, req, options, presented);
    next();
  };
}
