/**
 * Synthetic people for the sandbox: made with any preset values and any verification status,
 * listed and deleted by the organization that made them and by nobody else. Values are checked as
 * `admin user:credential` checks claims; a derived preset is given through its parent, and the
 * presets the user record holds (palm_verified, the wallets) set the user record.
 */
import { createUser } from '@svc/admin';
import { isUniqueViolation, type Prisma } from '@svc/db';
import { type FieldIssue, ValidationError } from '@svc/http';
import { formatHint, isPresetName, isWellFormed, storedClaimProblem } from '@svc/presets';
import { checkAddress, type TEST_PRESET_STATUSES } from '@svc/schemas';
import { randomBase62 } from '@svc/secrets';
import type { z } from 'zod';
import type { ZCreateTestUserRequest } from '@svc/schemas';
import { accountExists, conflict, testUserNotFound } from '../errors.js';
import { adminContext, asRequest } from '../developer/admin-calls.js';
import type { SandboxDeps } from './deps.js';

type Status = 'valid' | (typeof TEST_PRESET_STATUSES)[number];
type Request = z.output<typeof ZCreateTestUserRequest>;

/** Enough for any test suite; a bound on what one organization can put into the shared sandbox database. */
export const TEST_USERS_PER_ORGANIZATION = 1000;
const EXPIRED_DAYS_AGO = 1;

/** What a request's presets become: the user record's settings, and the claims of each status. */
interface Plan {
  palmVerified: boolean;
  wallet: string | undefined;
  claims: Partial<Record<Status, Record<string, unknown>>>;
}

function plan(body: Request): Plan {
  const issues: FieldIssue[] = [];
  const result: Plan = { palmVerified: body.palm_verified ?? false, wallet: body.wallet_address, claims: {} };
  for (const [name, value] of Object.entries(body.presets)) {
    const field = `body.presets.${name}`;
    if (!isPresetName(name)) {
      issues.push({ field, message: 'is not a preset (GET /v2/presets lists them)' });
    } else if (name === 'palm_verified') {
      if (typeof value === 'boolean') result.palmVerified = value;
      else issues.push({ field, message: 'must be true or false' });
    } else if (name === 'wallet_address' || name === 'primary_wallet_address') {
      const check = typeof value === 'string' ? checkAddress(value) : undefined;
      if (!check?.ok) issues.push({ field, message: 'must be an EIP-55 wallet address' });
      else if (result.wallet && result.wallet !== check.address) issues.push({ field, message: 'names another wallet than wallet_address' });
      else result.wallet = check.address;
    } else if (storedClaimProblem(name)) {
      issues.push({ field, message: storedClaimProblem(name)! });
    } else if (!isWellFormed(name, value)) {
      issues.push({ field, message: `must be ${formatHint(name)}` });
    } else {
      const status = body.statuses[name] ?? 'valid';
      result.claims[status] = { ...result.claims[status], [name]: value };
    }
  }
  for (const name of Object.keys(body.statuses)) {
    const field = `body.statuses.${name}`;
    if (!(name in body.presets)) issues.push({ field, message: 'names a preset not given in presets' });
    else if (['palm_verified', 'wallet_address', 'primary_wallet_address'].includes(name))
      issues.push({ field, message: 'comes from the user record, which has no verification status' });
  }
  if (issues.length) throw new ValidationError(issues);
  return result;
}

/**
 * Test users live under names reserved for testing and documentation (RFC 2606, RFC 6761: the
 * top-level .test, .example, .invalid and .localhost, and example.com, .net and .org), so one can
 * never take a real person's email (and with it their sign-up, or an invitation meant for them).
 */
const RESERVED_DOMAIN = /@(([a-z0-9-]+\.)*[a-z0-9-]+\.(test|example|invalid|localhost)|([a-z0-9-]+\.)*example\.(com|net|org))$/;

export async function createTestUser(deps: SandboxDeps, organizationId: string, body: Request) {
  if (body.email && !RESERVED_DOMAIN.test(body.email))
    throw new ValidationError([
      {
        field: 'body.email',
        message:
          'must be under a domain reserved for testing (RFC 2606): .test, .example, .invalid, .localhost, or example.com, .net or .org, such as @example.test (test users are not real people)',
      },
    ]);
  const planned = plan(body);
  if ((await deps.db.user.count({ where: { testUserOfOrganizationId: organizationId } })) >= TEST_USERS_PER_ORGANIZATION) {
    throw conflict('too_many_test_users', `An organization keeps at most ${TEST_USERS_PER_ORGANIZATION} test users: delete some first`);
  }
  // A made-up address that no mail server accepts (RFC 2606), unique per user.
  const email = body.email ?? `test-${randomBase62(12).toLowerCase()}@sandbox.invalid`;
  const password = body.password ?? `test-${randomBase62(20)}`;
  if (await deps.db.user.findUnique({ where: { email }, select: { id: true } })) throw accountExists();
  if (planned.wallet && (await deps.db.wallet.findUnique({ where: { address: planned.wallet }, select: { id: true } }))) {
    throw conflict('wallet_taken', `wallet_address ${planned.wallet} belongs to another user of the sandbox`);
  }
  const now = deps.clock.now();
  const userId = await deps.db
    .$transaction(async (tx) => {
      const user = await asRequest(() =>
        createUser(
          { ...adminContext(deps), db: tx },
          { email, password, palmVerified: planned.palmVerified, wallets: planned.wallet ? [planned.wallet] : [], testUserOfOrganizationId: organizationId },
        ),
      );
      for (const [status, claims] of Object.entries(planned.claims) as [Status, Record<string, unknown>][]) {
        await tx.userCredential.create({
          data: {
            userId: user.id,
            source: 'sandbox',
            claims: claims as Prisma.InputJsonObject,
            status: status === 'expired' ? 'valid' : status,
            verifiedAt: now,
            expiresAt: status === 'expired' ? new Date(now.getTime() - EXPIRED_DAYS_AGO * 86_400_000) : null,
          },
        });
      }
      return user.id;
    })
    .catch((err: unknown) => {
      // The same email or wallet made by two requests at once: the loser is told, as above.
      throw isUniqueViolation(err) ? conflict('test_user_exists', 'A user with this email or wallet was just made') : err;
    });
  return { ...(await testUserView(deps, organizationId, userId)), password };
}

const withData = { wallets: { select: { address: true, isPrimary: true } }, credentials: { select: { claims: true, status: true, expiresAt: true } } } as const;

function view(user: Prisma.UserGetPayload<{ include: typeof withData }>, now: Date) {
  const presets: Record<string, Status> = {};
  if (user.palmVerified) presets.palm_verified = 'valid';
  for (const credential of user.credentials) {
    const status: Status = credential.status !== 'valid' ? credential.status : credential.expiresAt && credential.expiresAt <= now ? 'expired' : 'valid';
    for (const name of Object.keys(credential.claims as object)) presets[name] = status;
  }
  return {
    user_id: user.id,
    email: user.email,
    wallet_address: (user.wallets.find((w) => w.isPrimary) ?? user.wallets[0])?.address ?? null,
    palm_verified: user.palmVerified,
    presets,
    created_at: user.createdAt.toISOString(),
  };
}

async function testUserView(deps: SandboxDeps, organizationId: string, userId: string) {
  const user = await deps.db.user.findFirst({ where: { id: userId, testUserOfOrganizationId: organizationId }, include: withData });
  if (!user) throw testUserNotFound();
  return view(user, deps.clock.now());
}

export async function listTestUsers(deps: SandboxDeps, organizationId: string) {
  const users = await deps.db.user.findMany({ where: { testUserOfOrganizationId: organizationId }, include: withData, orderBy: { createdAt: 'asc' } });
  const now = deps.clock.now();
  return { items: users.map((u) => view(u, now)) };
}

/** Gone with everything of theirs: wallets, data, sessions, authorizations (and so their tokens). */
export async function deleteTestUser(deps: SandboxDeps, organizationId: string, userId: string) {
  const deleted = await deps.db.user.deleteMany({ where: { id: userId, testUserOfOrganizationId: organizationId } });
  if (deleted.count === 0) throw testUserNotFound();
  deps.tokens.grants.announce('u', userId);
}

/** One of the organization's test users, or 404. */
export async function testUserOf(deps: SandboxDeps, organizationId: string, userId: string) {
  const user = await deps.db.user.findFirst({ where: { id: userId, testUserOfOrganizationId: organizationId }, select: { id: true, palmVerified: true } });
  if (!user) throw testUserNotFound();
  return user;
}
