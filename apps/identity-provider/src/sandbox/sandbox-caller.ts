import type { Request } from 'express';
import { authenticateGuarded, credentialsFrom } from '../clients/client-auth.js';
import { conflict, onlyInTheSandbox } from '../errors.js';
import { checkedDeveloper } from '../developer/developer-auth.js';
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

export async function sandboxCaller(deps: SandboxDeps, req: Request, options: { csrf: boolean }): Promise<SandboxCaller> {
  if (!deps.environment.sandbox) throw onlyInTheSandbox();
  if (req.headers.authorization?.startsWith('Basic ')) {
    const presented = credentialsFrom(req.headers.authorization, {});
    const app = await authenticateGuarded(deps, presented, req.ip);
    return { organizationId: app.organizationId, clientId: app.clientId };
  }
  return { organizationId: (await checkedDeveloper(deps, req, options)).organizationId };
}

/** What only a developer may do (deleting test users, which other applications may rely on). */
export function requireDeveloperCaller(caller: SandboxCaller): string {
  if (caller.clientId) throw conflict('forbidden', 'An application’s credentials cannot do this: a developer’s session or personal access token can');
  return caller.organizationId;
}
