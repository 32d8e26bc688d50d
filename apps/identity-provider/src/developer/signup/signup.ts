/**
 * Developer sign-up, in two steps, so that nobody opens an account in someone else's name: the
 * sign-up is kept aside (its password already hashed) and a single-use link is mailed to the
 * address; following it, with the password chosen at sign-up, makes the account and its own
 * organization, or, with an invitation token for this email, its membership of the organization
 * that invited it (the only way in when sign-up is by invitation, production's default). Open in
 * the sandbox; in production with CONSOLE_SIGNUP=open.
 *
 * The first answer is the same whether or not the address has an account (that address is mailed
 * word of the attempt instead of a link), and costs the same: a password hash and one mail.
 */
import { createUser } from '@svc/admin';
import { isUniqueViolation } from '@svc/db';
import { ValidationError } from '@svc/http';
import { hashPassword, randomBase62, sha256Hex, verifyPassword } from '@svc/secrets';
import { forbiddenInvitation, signupClosed, signupLinkInvalid, signupPasswordWrong } from '../../errors.js';
import { adminContext, asRequest } from '../admin-calls.js';
import type { DeveloperDeps } from '../deps.js';
import { invitationFor } from '../members.js';
import { alreadyRegisteredMail, confirmationMail } from './signup-mails.js';
import { senderOf } from '../../mail/mail-sender.js';
import type { Locale } from '../../views/locales/locale.js';

/** How long a sign-up link works. */
export const SIGNUP_LINK_MINUTES = 30;
/** Wrong passwords given with one link before its sign-up is dropped. */
const PASSWORD_TRIES = 5;
const SIGNUP_TOKEN = /^(sbx_)?svcsgn_[0-9A-Za-z]{43}$/;

type SignUpDeps = DeveloperDeps;

/** A sign-up: its mail in `lang`, the language of the request (the console's page, or Accept-Language). */
export async function signUp(
  deps: SignUpDeps,
  input: { email: string; password: string; organization_name?: string | undefined; invitation_token?: string | undefined },
  lang: Locale,
) {
  const invitation = input.invitation_token ? await invitationFor(deps, input.invitation_token, input.email) : undefined;
  if (!invitation && deps.config.signup === 'invite') throw signupClosed();
  if (!invitation && !input.organization_name)
    throw new ValidationError([{ field: 'body.organization_name', message: 'is required (or an invitation_token to join an organization)' }]);
  const answer = { status: 'verification_sent' as const, expires_in: SIGNUP_LINK_MINUTES * 60 };
  // Hashed whether or not it will be kept: both answers cost the same.
  const passwordHash = await hashPassword(input.password);
  const existing = await deps.db.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (!(await deps.limits.signupMail(input.email))) return answer;
  if (existing) {
    await deps.mailer.send(alreadyRegisteredMail(senderOf(deps), lang, input.email));
    return answer;
  }
  const token = deps.environment.mark(`svcsgn_${randomBase62(43)}`);
  await deps.db.pendingSignup.create({
    data: {
      email: input.email,
      tokenHash: sha256Hex(token),
      passwordHash,
      organizationName: invitation ? null : input.organization_name!,
      invitationId: invitation?.id ?? null,
      expiresAt: new Date(deps.clock.now().getTime() + SIGNUP_LINK_MINUTES * 60_000),
    },
  });
  await deps.mailer.send(confirmationMail(senderOf(deps), lang, input.email, token, SIGNUP_LINK_MINUTES, invitation !== undefined));
  return answer;
}

/** The live sign-up a link's token names, or the one refusal that says nothing more. */
export async function pendingSignUp(deps: Pick<SignUpDeps, 'db' | 'clock'>, token: string) {
  const row = SIGNUP_TOKEN.test(token) ? await deps.db.pendingSignup.findUnique({ where: { tokenHash: sha256Hex(token) } }) : null;
  if (!row || row.expiresAt <= deps.clock.now()) throw signupLinkInvalid();
  return row;
}

/**
 * Follows a sign-up link: with the password chosen at sign-up (so a link mailed to someone who
 * never asked for it opens nothing for whoever did), makes the account, marked as self-registered,
 * and its organization or membership. The link is spent, and every other pending sign-up of the
 * address with it.
 */
export async function confirmSignUp(deps: SignUpDeps, input: { token: string; password: string }) {
  const pending = await pendingSignUp(deps, input.token);
  if (!(await verifyPassword(input.password, pending.passwordHash))) {
    const counted = await deps.db.pendingSignup.update({ where: { id: pending.id }, data: { failedAttempts: { increment: 1 } } }).catch(() => undefined);
    if (!counted || counted.failedAttempts >= PASSWORD_TRIES) await deps.db.pendingSignup.deleteMany({ where: { id: pending.id } });
    throw signupPasswordWrong();
  }
  const now = deps.clock.now();
  return deps.db
    .$transaction(async (tx) => {
      // Single use: of two requests with one link, the first takes it.
      const taken = await tx.pendingSignup.deleteMany({ where: { id: pending.id } });
      if (taken.count !== 1) throw signupLinkInvalid();
      await tx.pendingSignup.deleteMany({ where: { email: pending.email } });
      // An operator may have made this address's account meanwhile (admin user:create): theirs stands.
      if (await tx.user.findUnique({ where: { email: pending.email }, select: { id: true } })) throw signupLinkInvalid();
      const user = await asRequest(() =>
        createUser({ ...adminContext(deps), db: tx }, { email: pending.email, password: { hash: pending.passwordHash }, selfRegistered: true }),
      );
      if (pending.invitationId) {
        const joined = await tx.invitation.updateMany({
          where: { id: pending.invitationId, email: pending.email, acceptedAt: null, expiresAt: { gt: now } },
          data: { acceptedAt: now },
        });
        if (joined.count !== 1) throw forbiddenInvitation();
        const invitation = await tx.invitation.findUniqueOrThrow({ where: { id: pending.invitationId } });
        await tx.organizationMember.create({ data: { organizationId: invitation.organizationId, userId: user.id, role: invitation.role } });
        return { user_id: user.id, organization_id: invitation.organizationId, email: pending.email };
      }
      const org = await tx.organization.create({
        data: { name: pending.organizationName!, ownerUserId: user.id, members: { create: { userId: user.id, role: 'owner' } } },
      });
      return { user_id: user.id, organization_id: org.id, email: pending.email };
    })
    .catch((err: unknown) => {
      // Two links of one address followed at once: the second finds the first's account.
      throw isUniqueViolation(err) ? signupLinkInvalid() : err;
    });
}

/** Sign-ups whose links have expired. */
export async function purgeExpiredSignUps(deps: Pick<SignUpDeps, 'db' | 'clock'>): Promise<number> {
  return (await deps.db.pendingSignup.deleteMany({ where: { expiresAt: { lt: deps.clock.now() } } })).count;
}
