/**
 * Asking for a reset link. The answer never says whether the address has an account: the route
 * answers 202 at once and this runs after (MailLater), so answers to known and unknown addresses
 * take the same time as well as saying the same thing.
 */
import { randomBase62, sha256Hex } from '@svc/secrets';
import type { Locale } from '../views/locales/locale.js';
import type { PasswordResetDeps } from './deps.js';
import { senderOf } from '../mail/mail-sender.js';
import { resetLinkMail } from './reset-mails.js';

/** The answer to every reset request, whatever the address. */
export const resetRequested = (deps: Pick<PasswordResetDeps, 'config'>) => ({
  status: 'requested' as const,
  expires_in: deps.config.PASSWORD_RESET_TTL_SECONDS,
});

/**
 * Mails the account of `email`, if there is one, a single-use link: only the token's hash is kept,
 * and it replaces the account's previous link (one live link per account, so an older mail stops
 * working). Past the address's hourly share of mails (counted for every address asked about,
 * with an account or not), nothing is sent.
 */
export async function mailResetLink(deps: PasswordResetDeps, email: string, lang: Locale): Promise<void> {
  if (!(await deps.limits.passwordResetMail(email))) return;
  const user = await deps.db.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) return;
  const token = deps.environment.mark(`svcpwr_${randomBase62(43)}`);
  const now = deps.clock.now();
  const link = { tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + deps.config.PASSWORD_RESET_TTL_SECONDS * 1000), createdAt: now };
  await deps.db.passwordReset.upsert({ where: { userId: user.id }, create: { userId: user.id, ...link }, update: link });
  await deps.mailer.send(resetLinkMail(senderOf(deps), email, token, Math.round(deps.config.PASSWORD_RESET_TTL_SECONDS / 60), lang));
}

/** Links whose time is up (housekeeping). */
export async function purgeExpiredResets(deps: Pick<PasswordResetDeps, 'db' | 'clock'>): Promise<number> {
  return (await deps.db.passwordReset.deleteMany({ where: { expiresAt: { lt: deps.clock.now() } } })).count;
}
