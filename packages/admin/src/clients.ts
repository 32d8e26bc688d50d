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
  /** RFC 9449: every token of this client must be DPoP-bound. */
  requireDpop?: boolean;
  /** RFC 7523 private_key_jwt: the client's public keys (a JWK Set as JSON), or where to fetch them. */
  jwks?: string | undefined;
  jwksUri?: string | undefined;
}

const ASSERTION_KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);

/** A JWK Set of public signing keys only: no private members, no symmetric keys. */
function parseJwks(json: string): { keys: Record<string, unknown>[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new AdminError('--jwks must be a JSON JWK Set ({"keys": [...]})');
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 10) throw new AdminError('--jwks must be a JWK Set with 1 to 10 keys');
  for (const key of keys as Record<string, unknown>[]) {
    if (typeof key !== 'object' || key === null || !ASSERTION_KEY_TYPES.has(String(key.kty)))
      throw new AdminError('--jwks keys must be RSA, EC or OKP public keys');
    if ('d' in key || 'k' in key) throw new AdminError('--jwks must hold public keys only (a member "d" or "k" was found)');
  }
  return { keys: keys as Record<string, unknown>[] };
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
  if (input.jwks && input.jwksUri) throw new AdminError('give --jwks or --jwks-uri, not both');
  if (input.public && (input.jwks || input.jwksUri)) throw new AdminError('a --public client has no keys: drop --jwks/--jwks-uri, or --public');
  if (input.jwksUri && redirectUriProblem(input.jwksUri)) throw new AdminError(`--jwks-uri ${redirectUriProblem(input.jwksUri)}`);
  const jwks = input.jwks ? parseJwks(input.jwks) : undefined;
  const org = await orgById(ctx, input.org);
  // A client that authenticates with its keys (private_key_jwt) has no shared secret.
  const secret = input.public || jwks || input.jwksUri ? null : generateClientSecret();
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
      requiresDpop: input.requireDpop === true,
      ...(jwks ? { jwks: jwks as object } : {}),
      ...(input.jwksUri ? { jwksUri: input.jwksUri } : {}),
      ...(presetCacheTtl ? { presetCacheTtlSeconds: presetCacheTtl } : {}),
      ...(accessTokenTtl ? { accessTokenTtlSeconds: accessTokenTtl } : {}),
    },
  });
  return { client_id: app.clientId, client_secret: secret?.secret ?? null };
}
