/**
 * Following a reset link: the new password replaces the old, the link is spent, and, when the
 * person asks, every other session of the account ends (its clients told by back-channel logout).
 * Passkeys are not touched: losing a password never takes them away.
 */
import { hashPassword, sha256Hex } from '@svc/secrets';
import { resetLinkInvalid } from '../errors.js';
import { signOutEverywhere } from '../sessions/sessions.js';
import type { Locale } from '../views/locales/locale.js';
import type { PasswordResetDeps } from './deps.js';
import { senderOf } from '../mail/mail-sender.js';
import { passwordChangedMail } from './reset-mails.js';

const RESET_TOKEN = /^(sbx_)?svcpwr_[0-9A-Za-z]{43}$/;

/** The live reset a link's token names, with its account's address, or the one refusal that says nothing more. */
export async function liveReset(deps: Pick<PasswordResetDeps, 'db' | 'clock'>, token: string) {
  const row = RESET_TOKEN.test(token)
    ? await deps.db.passwordReset.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: { select: { email: true } } } })
    : null;
  if (!row || row.expiresAt <= deps.clock.now()) throw resetLinkInvalid();
  return row;
}

export interface ResetInput {
  token: string;
  password: string;
  signOutEverywhere: boolean;
  /** The session the request itself presents: "everywhere else" keeps it. */
  keepSessionId: string | undefined;
  lang: Locale;
}

export async function resetPassword(deps: PasswordResetDeps, input: ResetInput) {
  // Checked before the costly hash, so an unknown token costs no scrypt work.
  const reset = await liveReset(deps, input.token);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const ended = await deps.db.$transaction(async (tx) => {
    // Single use in one step: of two confirmations of one link, only the one whose delete takes
    // the row goes on; the other finds nothing and changes nothing. Expiry is checked again here,
    // at the moment that counts.
    const [taken] = await tx.$queryRaw<{ userId: string }[]>`
      DELETE FROM "PasswordReset" WHERE "tokenHash" = ${reset.tokenHash} AND "expiresAt" > ${now} RETURNING "userId"`;
    if (!taken) throw resetLinkInvalid();
    await tx.$executeRaw`UPDATE "User" SET "passwordHash" = ${passwordHash}, "updatedAt" = ${now} WHERE id = ${taken.userId}::uuid`;
    return input.signOutEverywhere ? signOutEverywhere(tx, taken.userId, now, input.keepSessionId) : [];
  });
  for (const sessionId of ended) deps.logout.sessionEnded(sessionId);
  // After the answer: the change stands whether or not the mail server is up just now.
  deps.mailLater.run('password-changed mail', () => deps.mailer.send(passwordChangedMail(senderOf(deps), reset.user.email, ended.length > 0, input.lang)));
  return { status: 'password_changed' as const, sessions_ended: ended.length, email: reset.user.email };
}
