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

export async function orgById(ctx: AdminContext, id: string) {
  const org = isUuid(id) ? await ctx.db.organization.findUnique({ where: { id } }) : null;
  if (!org) throw new AdminError(`no organization with id ${id}`);
  return org;
}

export function assertUuid(id: string, what: string): void {
  if (!isUuid(id)) throw new AdminError(`no ${what} with id ${id}`);
}
