/**
 * Tokens a developer makes in the console: personal access tokens (`svcpat_…`, a bearer for
 * /v2/developer/* and /v2/sandbox/*, for scripts and CI; always expiring, listed and revoked in the
 * console) and RFC 7591 initial access tokens (`svciat_…`, which let their holder register clients
 * for the organization until they expire or are revoked). Each is shown once; only its SHA-256 is
 * kept (it is random, so a slow hash adds nothing). A personal access token cannot make another:
 * that takes a signed-in developer.
 */
import { randomBase62, sha256Hex } from '@svc/secrets';
import { conflict, tokenNotFound } from '../../errors.js';
import type { Developer } from '../developer-auth.js';
import type { DeveloperDeps } from '../deps.js';

/** Live tokens of each kind: one developer's personal access tokens, an organization's initial access tokens. */
const LIVE_TOKENS = 50;

/** A new random token of this environment, its hash, and the prefix listings show. */
function newToken(deps: DeveloperDeps, kind: 'svcpat_' | 'svciat_') {
  const token = deps.environment.mark(`${kind}${randomBase62(43)}`);
  // The kind and the first 6 of its 43 random characters: enough to tell tokens apart, nothing to guess with.
  return { token, hash: sha256Hex(token), prefix: token.slice(0, token.length - 37) };
}

const live = (now: Date) => ({ revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

export async function createPersonalAccessToken(deps: DeveloperDeps, developer: Developer, input: { name: string; expires_in_days: number }) {
  const now = deps.clock.now();
  if ((await deps.db.personalAccessToken.count({ where: { userId: developer.userId, ...live(now) } })) >= LIVE_TOKENS)
    throw conflict('too_many_tokens', `At most ${LIVE_TOKENS} live personal access tokens: revoke some first`);
  const { token, hash, prefix } = newToken(deps, 'svcpat_');
  const expiresAt = new Date(now.getTime() + input.expires_in_days * 86_400_000);
  const row = await deps.db.personalAccessToken.create({
    data: { userId: developer.userId, organizationId: developer.organizationId, name: input.name, prefix, tokenHash: hash, expiresAt },
  });
  return { id: row.id, name: row.name, token, expires_at: expiresAt.toISOString() };
}

/** The developer's own live tokens for this organization (an owner sees everyone's). */
export async function listPersonalAccessTokens(deps: DeveloperDeps, developer: Developer) {
  const rows = await deps.db.personalAccessToken.findMany({
    where: { organizationId: developer.organizationId, ...(developer.role === 'owner' ? {} : { userId: developer.userId }), ...live(deps.clock.now()) },
    orderBy: { createdAt: 'asc' },
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      created_at: r.createdAt.toISOString(),
      expires_at: r.expiresAt?.toISOString() ?? null,
      last_used_at: r.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

/** Revoked at once: a developer's own token, or (owners) any of the organization's. */
export async function revokePersonalAccessToken(deps: DeveloperDeps, developer: Developer, id: string) {
  const revoked = await deps.db.personalAccessToken.updateMany({
    where: { id, organizationId: developer.organizationId, revokedAt: null, ...(developer.role === 'owner' ? {} : { userId: developer.userId }) },
    data: { revokedAt: deps.clock.now() },
  });
  if (revoked.count === 0) throw tokenNotFound();
}

export async function createInitialAccessToken(deps: DeveloperDeps, developer: Developer, input: { expires_in_hours: number }) {
  const now = deps.clock.now();
  if ((await deps.db.initialAccessToken.count({ where: { organizationId: developer.organizationId, revokedAt: null, expiresAt: { gt: now } } })) >= LIVE_TOKENS)
    throw conflict('too_many_tokens', `At most ${LIVE_TOKENS} live initial access tokens: revoke some first`);
  const { token, hash, prefix } = newToken(deps, 'svciat_');
  const expiresAt = new Date(now.getTime() + input.expires_in_hours * 3_600_000);
  const row = await deps.db.initialAccessToken.create({
    data: { organizationId: developer.organizationId, prefix, tokenHash: hash, createdByUserId: developer.userId, expiresAt },
  });
  return { id: row.id, token, expires_at: expiresAt.toISOString() };
}

/** The organization's live initial access tokens, never the tokens themselves. */
export async function listInitialAccessTokens(deps: DeveloperDeps, developer: Developer) {
  const rows = await deps.db.initialAccessToken.findMany({
    where: { organizationId: developer.organizationId, revokedAt: null, expiresAt: { gt: deps.clock.now() } },
    orderBy: { createdAt: 'asc' },
  });
  return {
    items: rows.map((r) => ({ id: r.id, prefix: r.prefix, created_at: r.createdAt.toISOString(), expires_at: r.expiresAt.toISOString() })),
  };
}

export async function revokeInitialAccessToken(deps: DeveloperDeps, developer: Developer, id: string) {
  const revoked = await deps.db.initialAccessToken.updateMany({
    where: { id, organizationId: developer.organizationId, revokedAt: null },
    data: { revokedAt: deps.clock.now() },
  });
  if (revoked.count === 0) throw tokenNotFound();
}
