import { randomUUID } from 'node:crypto';
import type { Prisma } from '@svc/db';
import { formatHint, isPresetName, isWellFormed, storedClaimProblem } from '@svc/presets';
import { checkAddress } from '@svc/schemas';
import { hashPassword } from '@svc/secrets';
import type { AdminContext } from './context.js';
import { changingUserData } from './data-changes.js';
import { AdminError } from './errors.js';
import { normalizeEmail, userToVouchFor } from './lookups.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export interface CreateUserInput {
  email: string;
  /** The password, or (a sign-up that proved its address) the hash made of it when it was given. */
  password: string | { hash: string };
  wallets?: string[];
  palmVerified?: boolean;
  /** A sandbox test user: the organization that made it (and alone may see or delete it). */
  testUserOfOrganizationId?: string | undefined;
  /** Made by the person themselves (sign-up, invitation), not by an operator. */
  selfRegistered?: boolean;
}

export function assertWallet(address: string): string {
  const check = checkAddress(address);
  if (!check.ok) throw new AdminError(`wallet ${address} ${check.message}`);
  return check.address;
}

export async function createUser(ctx: AdminContext, input: CreateUserInput) {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email)) throw new AdminError(`--email ${input.email} is not an email address`);
  if (typeof input.password === 'string' && input.password.length < 8) throw new AdminError('--password must be at least 8 characters');
  const wallets = (input.wallets ?? []).map(assertWallet);
  if (new Set(wallets).size !== wallets.length) throw new AdminError('--wallet lists the same address twice');
  if (await ctx.db.user.findUnique({ where: { email } })) throw new AdminError(`a user with email ${email} already exists`);
  const taken = await ctx.db.wallet.findFirst({ where: { address: { in: wallets } } });
  if (taken) throw new AdminError(`wallet ${taken.address} is already registered`);
  // A sign-up of this address still waiting for its link is not an account: the operator's stands,
  // and the pending one is dropped, so its link can no longer make a second.
  await ctx.db.pendingSignup.deleteMany({ where: { email } });
  const user = await ctx.db.user.create({
    data: {
      email,
      passwordHash: typeof input.password === 'string' ? await hashPassword(input.password) : input.password.hash,
      serviceId: randomUUID(),
      palmVerified: input.palmVerified ?? false,
      palmVerifiedAt: input.palmVerified ? ctx.now() : null,
      wallets: { create: wallets.map((address, i) => ({ address, isPrimary: i === 0 })) },
      ...(input.testUserOfOrganizationId ? { testUserOfOrganizationId: input.testUserOfOrganizationId } : {}),
      ...(input.selfRegistered ? { selfRegistered: true } : {}),
    },
  });
  return { id: user.id, email: user.email, service_id: user.serviceId };
}

export interface AddCredentialInput {
  email: string;
  source: string;
  claims: string;
  expiresAt?: string | undefined;
  status?: string | undefined;
  /** The user may be a self-registered account (--self-registered-ok): the operator checked it is the person. */
  selfRegisteredOk?: boolean;
}

const STATUSES = ['valid', 'pending', 'revoked'] as const;

export async function addCredential(ctx: AdminContext, input: AddCredentialInput) {
  const user = await userToVouchFor(ctx, input.email, input.selfRegisteredOk);
  if (!input.source.trim()) throw new AdminError('--source must not be empty');
  let claims: unknown;
  try {
    claims = JSON.parse(input.claims);
  } catch {
    throw new AdminError('--claims is not valid JSON');
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    throw new AdminError('--claims must be a JSON object of preset names to values');
  }
  const unknown = Object.keys(claims).filter((k) => !isPresetName(k));
  if (unknown.length) throw new AdminError(`--claims names unknown presets: ${unknown.join(', ')}`);
  // A derived preset stored as a claim would never be served (it is computed from its parent).
  const unstorable = Object.keys(claims).flatMap((name) => {
    const problem = storedClaimProblem(name);
    return problem ? [`${name} ${problem}`] : [];
  });
  if (unstorable.length) throw new AdminError(`--claims ${unstorable.join('; ')}`);
  // What the presets would serve as "malformed" (unavailable) is refused here, where it can be fixed.
  const malformed = Object.entries(claims).filter(([name, value]) => !isWellFormed(name, value));
  if (malformed.length) throw new AdminError(`--claims ${malformed.map(([name]) => `${name} must be ${formatHint(name)}`).join('; ')}`);
  const status = input.status ?? 'valid';
  if (!(STATUSES as readonly string[]).includes(status)) throw new AdminError(`--status must be one of ${STATUSES.join(', ')}`);
  let expiresAt: Date | null = null;
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) throw new AdminError(`--expires-at ${input.expiresAt} is not an ISO 8601 date`);
  }
  const credential = await changingUserData(ctx, user.id, ({ db }) =>
    db.userCredential.create({
      data: {
        userId: user.id,
        source: input.source.trim(),
        claims: claims as Prisma.InputJsonObject,
        status: status as (typeof STATUSES)[number],
        verifiedAt: ctx.now(),
        expiresAt,
      },
    }),
  );
  return { id: credential.id };
}

export async function registerWallet(ctx: AdminContext, input: { email: string; wallet: string; primary?: boolean; selfRegisteredOk?: boolean }) {
  const user = await userToVouchFor(ctx, input.email, input.selfRegisteredOk);
  const address = assertWallet(input.wallet);
  if (await ctx.db.wallet.findUnique({ where: { address } })) throw new AdminError(`wallet ${address} is already registered`);
  const wallet = await changingUserData(ctx, user.id, async ({ db: tx }) => {
    const hasPrimary = (await tx.wallet.count({ where: { userId: user.id, isPrimary: true } })) > 0;
    const isPrimary = input.primary === true || !hasPrimary;
    if (isPrimary) await tx.wallet.updateMany({ where: { userId: user.id }, data: { isPrimary: false } });
    return tx.wallet.create({ data: { userId: user.id, address, isPrimary } });
  });
  return { id: wallet.id, user_id: user.id, address: wallet.address, is_primary: wallet.isPrimary };
}

export async function removeWallet(ctx: AdminContext, input: { wallet: string }) {
  const address = assertWallet(input.wallet);
  const wallet = await ctx.db.wallet.findUnique({ where: { address }, select: { userId: true } });
  if (!wallet) throw new AdminError(`wallet ${address} is not registered`);
  const removed = await changingUserData(ctx, wallet.userId, ({ db }) => db.wallet.deleteMany({ where: { address } }));
  if (removed.count === 0) throw new AdminError(`wallet ${address} is not registered`);
  return { address, removed: true };
}

export async function setPalmVerified(ctx: AdminContext, input: { email: string; verified: boolean; selfRegisteredOk?: boolean }) {
  // Revoking vouches for nobody: it needs no flag.
  const user = await userToVouchFor(ctx, input.email, input.selfRegisteredOk || !input.verified);
  const updated = await changingUserData(ctx, user.id, ({ db }) =>
    db.user.update({ where: { id: user.id }, data: { palmVerified: input.verified, palmVerifiedAt: input.verified ? ctx.now() : null } }),
  );
  return { id: updated.id, palm_verified: updated.palmVerified };
}
