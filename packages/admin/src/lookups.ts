import type { AdminContext } from './context.js';
import { isUuid } from '@svc/schemas';
import { AdminError } from './errors.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function userByEmail(ctx: AdminContext, email: string) {
  const user = await ctx.db.user.findUnique({ where: { email: normalizeEmail(email) } });
  if (!user) throw new AdminError(`no user with email ${email}`);
  return user;
}

/**
 * A user found by email to attach verified data to (palm verification, credentials, wallets). An
 * account the person made themselves (sign-up, invitation) proved only that they read mail at that
 * address, not who they are: refused unless the operator says, with `selfRegisteredOk`
 * (--self-registered-ok), that they checked it is the person they mean.
 */
export async function userToVouchFor(ctx: AdminContext, email: string, selfRegisteredOk = false) {
  const user = await userByEmail(ctx, email);
  if (user.selfRegistered && !selfRegisteredOk)
    throw new AdminError(
      `${user.email} signed up by themselves: the account proves only that its holder reads that address. Check that it is the person you verified, then repeat with --self-registered-ok`,
    );
  return user;
}

export async function orgById(ctx: AdminContext, id: string) {
  const org = isUuid(id) ? await ctx.db.organization.findUnique({ where: { id } }) : null;
  if (!org) throw new AdminError(`no organization with id ${id}`);
  return org;
}

export function assertUuid(id: string, what: string): void {
  if (!isUuid(id)) throw new AdminError(`no ${what} with id ${id}`);
}
