/**
 * Developer sign-up: an account and an organization of its own, or, with an invitation token for
 * this email, membership of the organization that invited it (the only way in when sign-up is by
 * invitation, production's default). Open in the sandbox; in production with CONSOLE_SIGNUP=open.
 * Without email verification, saying "this email has an account" cannot be avoided, so sign-ups
 * are limited per source address.
 */
import { createUser } from '@svc/admin';
import { isUniqueViolation } from '@svc/db';
import { ValidationError } from '@svc/http';
import { accountExists, signupClosed } from '../errors.js';
import { adminContext, asRequest } from './admin-calls.js';
import type { DeveloperDeps } from './deps.js';
import { invitationFor } from './members.js';

export async function signUp(
  deps: DeveloperDeps,
  input: { email: string; password: string; organization_name?: string | undefined; invitation_token?: string | undefined },
) {
  const invitation = input.invitation_token ? await invitationFor(deps, input.invitation_token, input.email) : undefined;
  if (!invitation && deps.config.signup === 'invite') throw signupClosed();
  if (!invitation && !input.organization_name)
    throw new ValidationError([{ field: 'body.organization_name', message: 'is required (or an invitation_token to join an organization)' }]);
  if (await deps.db.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw accountExists();
  const now = deps.clock.now();
  return deps.db
    .$transaction(async (tx) => {
      const user = await asRequest(() => createUser({ ...adminContext(deps), db: tx }, { email: input.email, password: input.password }));
      if (invitation) {
        const taken = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null }, data: { acceptedAt: now } });
        if (taken.count !== 1) throw signupClosed();
        await tx.organizationMember.create({ data: { organizationId: invitation.organizationId, userId: user.id, role: invitation.role } });
        return { user_id: user.id, organization_id: invitation.organizationId };
      }
      const org = await tx.organization.create({
        data: { name: input.organization_name!, ownerUserId: user.id, members: { create: { userId: user.id, role: 'owner' } } },
      });
      return { user_id: user.id, organization_id: org.id };
    })
    .catch((err: unknown) => {
      // Two sign-ups with one email at once: the second finds the first's row.
      throw isUniqueViolation(err) ? accountExists() : err;
    });
}
