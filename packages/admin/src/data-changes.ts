import { outboxInsert } from '@svc/db';
import { PRESET_NAMES, presetDefinition, resolvePreset, type StoredCredential, type SubjectData } from '@svc/presets';
import { withImplied } from '@svc/schemas';
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
      select: { id: true, grantedScopes: true, application: { select: { clientId: true, organizationId: true } } },
    });
    for (const a of authorizations) {
      const readable = new Set<string>(withImplied(a.grantedScopes));
      const presets = changed.filter((name) => readable.has(presetDefinition(name)!.scope));
      if (presets.length === 0) continue;
      await outboxInsert(tx.db, {
        organizationId: a.application.organizationId,
        type: 'user.data_changed',
        data: { authorization_id: a.id, client_id: a.application.clientId, presets },
        subject: a.id,
      });
    }
    return result;
  });
}
