/**
 * An organization's members and invitations. Nobody is added to an organization without taking
 * part: an owner invites an email, and gets an invitation token (shown once) to hand to that
 * person out of band; whoever holds it and signs up with that email (or, with an account, signs in
 * and accepts it) joins with the invited role. An invitation says nothing of whether the email has
 * an account. Owners remove members; anyone may leave; the organization's founder stays.
 */
import type { MemberRole } from '@svc/db';
import { isUniqueViolation } from '@svc/db';
import { randomBase62, sha256Hex } from '@svc/secrets';
import { conflict, forbiddenInvitation, memberNotFound } from '../errors.js';
import type { Developer } from './developer-auth.js';
import type { DeveloperDeps } from './deps.js';

export const INVITATION_DAYS = 14;
/** Pending invitations an organization may hold at once. */
const PENDING_INVITATIONS = 100;
const INVITATION_TOKEN = /^(sbx_)?svcinv_[0-9A-Za-z]{43}$/;

export async function listMembers(deps: DeveloperDeps, developer: Developer) {
  const orgId = developer.organizationId;
  const [members, invitations] = await Promise.all([
    deps.db.organizationMember.findMany({ where: { organizationId: orgId }, include: { user: { select: { email: true } } }, orderBy: { createdAt: 'asc' } }),
    deps.db.invitation.findMany({ where: { organizationId: orgId, acceptedAt: null, expiresAt: { gt: deps.clock.now() } }, orderBy: { createdAt: 'asc' } }),
  ]);
  return {
    items: [
      ...members.map((m) => ({ email: m.user.email, role: m.role, status: 'member' as const, user_id: m.userId })),
      ...invitations.map((i) => ({ email: i.email, role: i.role, status: 'invited' as const, user_id: null })),
    ],
  };
}

/** A new invitation (or a renewed one, with a new token, for an email already invited). */
export async function invite(deps: DeveloperDeps, developer: Developer, input: { email: string; role: MemberRole }) {
  const now = deps.clock.now();
  const pending = await deps.db.invitation.count({ where: { organizationId: developer.organizationId, acceptedAt: null, expiresAt: { gt: now } } });
  if (pending >= PENDING_INVITATIONS) throw conflict('too_many_invitations', `An organization holds at most ${PENDING_INVITATIONS} pending invitations`);
  const token = deps.environment.mark(`svcinv_${randomBase62(43)}`);
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const fields = { role: input.role, tokenHash: sha256Hex(token), invitedByUserId: developer.userId, expiresAt, acceptedAt: null };
  await deps.db.invitation
    .upsert({
      where: { organizationId_email: { organizationId: developer.organizationId, email: input.email } },
      create: { organizationId: developer.organizationId, email: input.email, ...fields },
      update: fields,
    })
    .catch((err: unknown) => {
      // Two invitations of one email at once: the other one stands.
      throw isUniqueViolation(err) ? conflict('invitation_pending', 'This email was invited just now; try again') : err;
    });
  return { email: input.email, role: input.role, status: 'invited' as const, invitation_token: token, expires_at: expiresAt.toISOString() };
}

/** The pending invitation a token and email name, or the one refusal that says nothing more. */
export async function invitationFor(deps: Pick<DeveloperDeps, 'db' | 'clock' | 'environment'>, token: string, email: string) {
  const row = INVITATION_TOKEN.test(token) ? await deps.db.invitation.findUnique({ where: { tokenHash: sha256Hex(token) } }) : null;
  if (!row || row.acceptedAt || row.expiresAt <= deps.clock.now() || row.email !== email) {
    throw forbiddenInvitation(deps.environment.elsewhere('This invitation token', token));
  }
  return row;
}

/** A signed-in person accepts an invitation for their own email; someone already a member keeps their role. */
export async function acceptInvitation(deps: DeveloperDeps, user: { userId: string; email: string }, token: string) {
  const invitation = await invitationFor(deps, token, user.email);
  await deps.db.$transaction(async (tx) => {
    const taken = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null }, data: { acceptedAt: deps.clock.now() } });
    if (taken.count !== 1) throw forbiddenInvitation();
    const existing = await tx.organizationMember.findUnique({
      where: { organizationId_userId: { organizationId: invitation.organizationId, userId: user.userId } },
    });
    if (!existing) await tx.organizationMember.create({ data: { organizationId: invitation.organizationId, userId: user.userId, role: invitation.role } });
  });
  return { organization_id: invitation.organizationId, role: invitation.role };
}

/** An owner removes a member, or anyone leaves; the founder (the organization's owner of record) cannot be removed. */
export async function removeMember(deps: DeveloperDeps, developer: Developer, userId: string) {
  if (userId !== developer.userId && developer.role !== 'owner') throw conflict('forbidden', 'Only an owner may remove other members');
  const org = await deps.db.organization.findUniqueOrThrow({ where: { id: developer.organizationId } });
  if (org.ownerUserId === userId) throw conflict('founder', 'The organization’s founder stays a member');
  const now = deps.clock.now();
  const removed = await deps.db.$transaction(async (tx) => {
    const gone = await tx.organizationMember.deleteMany({ where: { organizationId: developer.organizationId, userId } });
    // Their tokens go with them, so none comes back to life should they rejoin.
    await tx.personalAccessToken.updateMany({ where: { organizationId: developer.organizationId, userId, revokedAt: null }, data: { revokedAt: now } });
    await tx.initialAccessToken.updateMany({
      where: { organizationId: developer.organizationId, createdByUserId: userId, revokedAt: null },
      data: { revokedAt: now },
    });
    return gone.count;
  });
  if (removed === 0) throw memberNotFound();
}
