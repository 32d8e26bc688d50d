import { outboxInsert } from '@svc/db';
import { PRESET_NAMES, presetDefinition, resolvePreset, type StoredCredential, type SubjectData } from '@svc/presets';
import { walletConfiguration, webhookEvent, withImplied } from '@svc/schemas';
import { type AdminContext, type DbClient, inTransaction } from './context.js';

/** Everything presets are resolved from, for one user, straight from the database. */
export async function loadSubject(db: DbClient, userId: string): Promise<SubjectData> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      serviceId: true,
      palmVerified: true,
      palmVerifiedAt: true,
      createdAt: true,
      wallets: { select: { address: true, isPrimary: true } },
      credentials: { select: { id: true, source: true, claims: true, status: true, verifiedAt: true, expiresAt: true } },
    },
  });
  const { wallets, credentials, ...record } = user;
  return { user: record, wallets, credentials: credentials as StoredCredential[] };
}

/** The presets whose value or status differ between two states of one user's data. */
export function changedPresets(before: SubjectData, after: SubjectData, now: Date): string[] {
  const seen = (data: SubjectData, name: (typeof PRESET_NAMES)[number]) => {
    const { value, status } = resolvePreset(name, data, now);
    return JSON.stringify({ value, status });
  };
  return PRESET_NAMES.filter((name) => seen(before, name) !== seen(after, name));
}

/**
 * Changes a user's verified data and, in the same transaction, tells each application the user
 * has an active authorization for which presets it may read changed (user.data_changed: names,
 * never values; the application reads them with its token, under the user's consent). Nothing is
 * told of a change no preset shows, nor to an application whose scopes read none of it.
 */
export async function changingUserData<T>(ctx: AdminContext, userId: string, change: (tx: AdminContext) => Promise<T>): Promise<T> {
  return inTransaction(ctx, async (tx) => {
    const before = await loadSubject(tx.db, userId);
    const result = await change(tx);
    const changed = changedPresets(before, await loadSubject(tx.db, userId), tx.now());
    if (changed.length === 0) return result;
    const authorizations = await tx.db.authorization.findMany({
      where: { userId, status: { in: ['approved', 'consumed'] } },
      select: { id: true, grantedScopes: true, authorizationDetails: true, application: { select: { clientId: true, organizationId: true } } },
    });
    await tellCredentialIssuer(tx, authorizations, changed);
    for (const a of authorizations) {
      const readable = new Set<string>(withImplied(a.grantedScopes));
      const presets = changed.filter((name) => readable.has(presetDefinition(name)!.scope));
      if (presets.length === 0) continue;
      await outboxInsert(tx.db, {
        organizationId: a.application.organizationId,
        event: webhookEvent('user.data_changed', { authorization_id: a.id, client_id: a.application.clientId, presets }),
        subject: a.id,
      });
    }
    return result;
  });
}

/**
 * A wallet's approval whose credentials carry a changed preset (their claims come from presets):
 * wallet_approval.data_changed to the credential issuer's client's organization (the identity
 * provider's CREDENTIAL_ISSUER_CLIENT_ID, in the context when the CLI runs with it), naming those
 * configurations, so the issuer revokes what it issued on them. The approval stays: the wallet
 * keeps reading what it may, and the person approves again for a new credential.
 */
async function tellCredentialIssuer(tx: AdminContext, authorizations: { id: string; authorizationDetails: unknown }[], changed: string[]) {
  if (!tx.credentialIssuerClientId) return;
  const stale = authorizations.flatMap((a) => {
    const details = Array.isArray(a.authorizationDetails) ? (a.authorizationDetails as { credential_configuration_id?: string }[]) : [];
    const ids = details
      .map((d) => d.credential_configuration_id ?? '')
      .filter((id) => walletConfiguration(id)?.type.claims.some((c) => c.preset !== undefined && changed.includes(c.preset)));
    return ids.length ? [{ id: a.id, ids }] : [];
  });
  if (stale.length === 0) return;
  const issuer = await tx.db.application.findUnique({ where: { clientId: tx.credentialIssuerClientId }, select: { organizationId: true } });
  if (!issuer) return;
  for (const a of stale)
    await outboxInsert(tx.db, {
      organizationId: issuer.organizationId,
      event: webhookEvent('wallet_approval.data_changed', { authorization_id: a.id, credential_configuration_ids: a.ids }),
      subject: a.id,
    });
}
