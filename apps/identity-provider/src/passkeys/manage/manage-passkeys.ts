import type { PasskeyView } from '@svc/schemas';
import { lastSignInMethod, passkeyNotFound } from '../../errors.js';
import { signOutEverywhere } from '../../sessions/sessions.js';
import type { PasskeyDeps } from '../deps.js';
import { passkeyView } from '../passkey-view.js';

/** A person's passkeys, oldest first. */
export async function listPasskeys(deps: Pick<PasskeyDeps, 'db'>, userId: string): Promise<PasskeyView[]> {
  const rows = await deps.db.passkey.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(passkeyView);
}

/** Someone else's passkey is not found, as one that does not exist (its existence is not revealed). */
export async function renamePasskey(deps: Pick<PasskeyDeps, 'db'>, userId: string, id: string, name: string): Promise<PasskeyView> {
  const { count } = await deps.db.passkey.updateMany({ where: { id, userId }, data: { name } });
  if (count === 0) throw passkeyNotFound();
  return passkeyView(await deps.db.passkey.findUniqueOrThrow({ where: { id } }));
}

/**
 * A password counts as a way in only if one is set: the stored hash is a scrypt hash (an account
 * made without one holds something no password matches).
 */
const hasPassword = (passwordHash: string) => passwordHash.startsWith('scrypt$');

/**
 * Deletes a passkey of the session's person, unless it is the account's last way to sign in (no
 * password, no other passkey): 409 last_sign_in_method. The person's passkeys are locked while it
 * is decided, so two deletes at once cannot each leave the other's as the "other" one. Every other
 * session the passkey signed in ends with it (a lost passkey's finder is signed out), and its
 * clients are told (back-channel logout); the session asking stays.
 */
export async function deletePasskey(
  deps: Pick<PasskeyDeps, 'db' | 'clock' | 'logout'>,
  session: { userId: string; sessionId: string },
  id: string,
): Promise<{ name: string }> {
  const { userId } = session;
  const now = deps.clock.now();
  const { name, ended } = await deps.db.$transaction(async (tx) => {
    const mine = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Passkey" WHERE "userId" = ${userId}::uuid FOR UPDATE`;
    if (!mine.some((p) => p.id === id)) throw passkeyNotFound();
    if (mine.length === 1) {
      const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
      if (!hasPassword(user.passwordHash)) throw lastSignInMethod();
    }
    const { name } = await tx.passkey.delete({ where: { id }, select: { name: true } });
    return { name, ended: await signOutEverywhere(tx, userId, now, session.sessionId, { passkeyId: id }) };
  });
  for (const sessionId of ended) deps.logout.sessionEnded(sessionId);
  return { name };
}
