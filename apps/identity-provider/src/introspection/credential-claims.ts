import { isPresetName, resolvePreset } from '@svc/presets';
import { type CredentialAuthorizationDetail, walletConfiguration } from '@svc/schemas';
import { loadSubject } from '../data-access/subject-data.js';
import type { TokenContext } from '../tokens/token-context.js';

/** The credentials a wallet's authorization was granted for (RFC 9396), as approved. */
export async function credentialDetailsOf(ctx: TokenContext, authorizationId: string): Promise<CredentialAuthorizationDetail[]> {
  const row = await ctx.db.authorization.findUnique({ where: { id: authorizationId }, select: { authorizationDetails: true } });
  return Array.isArray(row?.authorizationDetails) ? (row.authorizationDetails as unknown as CredentialAuthorizationDetail[]) : [];
}

/**
 * What each granted credential says of the person, read from their data now as presets read it:
 * a claim whose preset is not valid (missing, pending, revoked, expired) is left out, so the
 * issuer signs only what is verified today, and refuses a credential its required claims are
 * missing from.
 */
export async function credentialClaims(ctx: TokenContext, userId: string, details: CredentialAuthorizationDetail[]) {
  const subject = await loadSubject(ctx.db, userId);
  const now = ctx.clock.now();
  const claims: Record<string, Record<string, unknown>> = {};
  for (const { credential_configuration_id: id } of details) {
    const type = walletConfiguration(id)?.type;
    if (!type) continue;
    const values: Record<string, unknown> = {};
    for (const c of type.claims) {
      if (!c.preset || !isPresetName(c.preset)) continue;
      const resolved = resolvePreset(c.preset, subject, now);
      if (resolved.status === 'valid' && resolved.value !== null) values[c.name] = resolved.value;
    }
    claims[id] = values;
  }
  return claims;
}
