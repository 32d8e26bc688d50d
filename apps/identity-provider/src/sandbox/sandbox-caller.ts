import type { Request, RequestHandler } from 'express';
import { checkedClient } from '../clients/require-client.js';
import { checkedDeveloper } from '../developer/developer-auth.js';
import { conflict, onlyInTheSandbox } from '../errors.js';
import type { SandboxDeps } from './deps.js';

/**
 * Who asks for test data: a developer (console session or personal access token), for the whole
 * organization; or a sandbox application with its own client credentials (HTTP Basic), so its CI
 * can make test users and authorize them for itself, and nothing of the organization's other
 * applications. In production there is no test data: 404 before anything else.
 */
export interface SandboxCaller {
  organizationId: string;
  /** Set when an application asks: it acts on its own authorizations only. */
  clientId?: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Who asks for test data, left by requireSandboxCaller. */
    sandboxCaller?: SandboxCaller;
  }
}

export async function checkedSandboxCaller(deps: SandboxDeps, req: Request, options: { csrf: boolean }): Promise<SandboxCaller> {
  if (!deps.environment.sandbox) throw onlyInTheSandbox();
  if (req.headers.authorization?.startsWith('Basic ')) {
    const { app } = await checkedClient(deps, req, { from: 'header' });
    return { organizationId: app.organizationId, clientId: app.clientId };
  }
  return { organizationId: (await checkedDeveloper(deps, req, options)).organizationId };
}

/** The guard of a sandbox route (see checkedSandboxCaller): leaves the caller in `res.locals.sandboxCaller`. */
export function requireSandboxCaller(deps: SandboxDeps, options: { csrf: boolean }): RequestHandler {
  return async (req, res, next) => {
    res.locals.sandboxCaller = await checkedSandboxCaller(deps, req, options);
    next();
  };
}

/**
 * After requireSandboxCaller, what only a developer may do (deleting test users, which other
 * applications may rely on): an application's credentials are refused.
 */
export const requireDeveloperCaller: RequestHandler = (_req, res, next) => {
  if (res.locals.sandboxCaller?.clientId)
    throw conflict('forbidden', 'An application’s credentials cannot do this: a developer’s session or personal access token can');
  next();
};
