import { isPresetName, resolvePreset } from '@svc/presets';
import { type CredentialAuthorizationDetail, walletConfiguration } from '@svc/schemas';
import { storedDetails } from '../authorize/authorization-details.js';
import { loadSubject } from '../data-access/subject-data.js';
import type { TokenContext } from '../tokens/token-context.js';

/** The credentials a wallet's authorization was granted for (RFC 9396), as approved. */
export async function credentialDetailsOf(ctx: TokenContext, authorizationId: string): Promise<CredentialAuthorizationDetail[]> {
  const row = await ctx.db.authorization.findUnique({ where: { id: authorizationId }, select: { authorizationDetails: true } });
  return storedDetails(row?.authorizationDetails);
}

/**
 * What each granted credential says of the person, read from their data now as presets read it:
 * a claim whose preset is not valid (missing, pending, revoked, expired) is left out, so the
 * issuer signs only what is verified today and refuses a credential its required claims are
 * missing from; and when the first of the verifications behind it expires (`expires_at`, seconds),
 * so the credential ends no later.
 */
export async function credentialData(ctx: TokenContext, userId: string, details: CredentialAuthorizationDetail[]) {
  const subject = await loadSubject(ctx.db, userId);
  const now = ctx.clock.now();
  const data: Record<string, { claims: Record<string, unknown>; expires_at?: number }> = {};
  for (const { credential_configuration_id: id } of details) {
    const type = walletConfiguration(id)?.type;
    if (!type) continue;
    const claims: Record<string, unknown> = {};
    let expires: Date | undefined;
    for (const c of type.claims) {
      if (!c.preset || !isPresetName(c.preset)) continue;
      const resolved = resolvePreset(c.preset, subject, now);
      if (resolved.status !== 'valid' || resolved.value === null) continue;
      claims[c.name] = resolved.value;
      if (resolved.expiresAt && (!expires || resolved.expiresAt < expires)) expires = resolved.expiresAt;
    }
    data[id] = { claims, ...(expires ? { expires_at: Math.floor(expires.getTime() / 1000) } : {}) };
  }
  return data;
}
