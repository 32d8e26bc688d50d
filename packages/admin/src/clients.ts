import { SCOPES } from '@svc/schemas';
import { generateClientId, generateClientSecret } from '@svc/secrets';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { orgById } from './lookups.js';
import { redirectUriProblem } from './redirect-uris.js';

export interface CreateClientInput {
  org: string;
  name: string;
  redirectUris: string[];
  scopes: string;
  public?: boolean;
  requiresPalmVerification?: boolean;
  presetCacheTtl?: number | undefined;
  accessTokenTtl?: number | undefined;
}

const known: ReadonlySet<string> = new Set(SCOPES);

function assertTtl(value: number | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 60 || value > max) throw new AdminError(`${flag} must be a whole number of seconds from 60 to ${max}`);
  return value;
}

export async function createClient(ctx: AdminContext, input: CreateClientInput) {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new AdminError('--name must be 1 to 100 characters');
  if (input.redirectUris.length === 0) throw new AdminError('--redirect-uri is required (repeat it for several)');
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new AdminError(`--redirect-uri ${uri} ${problem}`);
  }
  const scopes = input.scopes.split(' ').filter(Boolean);
  if (scopes.length === 0) throw new AdminError('--scopes must list at least one scope');
  const unknown = scopes.filter((s) => !known.has(s));
  if (unknown.length) throw new AdminError(`--scopes has unknown scopes: ${unknown.join(', ')} (known: ${SCOPES.join(' ')})`);
  const presetCacheTtl = assertTtl(input.presetCacheTtl, '--preset-cache-ttl', 30 * 86_400);
  const accessTokenTtl = assertTtl(input.accessTokenTtl, '--access-token-ttl', 86_400);
  const org = await orgById(ctx, input.org);
  const secret = input.public ? null : generateClientSecret();
  const app = await ctx.db.application.create({
    data: {
      clientId: generateClientId(),
      clientSecretHash: secret?.hash ?? null,
      name,
      organizationId: org.id,
      isPublic: input.public === true,
      redirectUris: [...new Set(input.redirectUris)],
      allowedScopes: [...new Set(scopes)],
      requiresPalmVerification: input.requiresPalmVerification === true,
      ...(presetCacheTtl ? { presetCacheTtlSeconds: presetCacheTtl } : {}),
      ...(accessTokenTtl ? { accessTokenTtlSeconds: accessTokenTtl } : {}),
    },
  });
  return { client_id: app.clientId, client_secret: secret?.secret ?? null };
}
