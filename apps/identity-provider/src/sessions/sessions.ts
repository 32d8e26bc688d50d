import type { Db, Prisma } from '@svc/db';
import type { RateLimiter } from '@svc/kv';
import { isAcr, PASSWORD_SIGN_IN, type SignInAssurance } from '@svc/schemas';
import { DUMMY_PASSWORD_HASH, randomBase62, sha256Hex, verifyPassword } from '@svc/secrets';
import { wrongPassword } from '../errors.js';
import type { EnvironmentGuard } from '../environment/environment.js';
import { SignInAttempt } from './sign-in-throttle.js';

export const SESSION_TTL_SECONDS = 12 * 3600;
/** A session token of either environment: the other's is then not found, and refused with its reason. */
export const SESSION_TOKEN = /^(sbx_)?svcsess_/;

export interface SessionUser extends SignInAssurance {
  sessionId: string;
  userId: string;
  email: string;
  authTime: Date;
  palmVerified: boolean;
}

/**
 * A new session of `userId`, signed in as `assurance` says (a password, a passkey: `passkeyId`,
 * so that deleting the passkey ends it): its token, shown once (only its hash is kept). Every way
 * of signing in ends here.
 */
export async function startSession(
  { db, environment }: { db: Pick<Prisma.TransactionClient, 'session'>; environment: EnvironmentGuard },
  userId: string,
  assurance: SignInAssurance,
  now: Date,
  passkeyId?: string,
) {
  const token = environment.mark(`svcsess_${randomBase62(43)}`);
  const session = await db.session.create({
    data: {
      userId,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
      createdAt: now,
      acr: assurance.acr,
      amr: assurance.amr,
      ...(passkeyId ? { passkeyId } : {}),
    },
  });
  return { token, session };
}

/**
 * Email + password sign-in, through the sign-in throttle (sign-in-throttle.ts): an attempt it
 * refuses is answered 429 with Retry-After without checking the password. Unknown emails cost the
 * same scrypt work as known ones.
 */
export async function signIn(
  { db, limiter, environment }: { db: Db; limiter: RateLimiter; environment: EnvironmentGuard },
  input: { email: string; password: string; address: string },
  now: Date,
) {
  const email = input.email.trim().toLowerCase();
  const attempt = await SignInAttempt.reserve(limiter, email, input.address);
  let user: Awaited<ReturnType<typeof db.user.findUnique>> = null;
  let ok = false;
  try {
    user = await db.user.findUnique({ where: { email } });
    ok = (await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH)) && user !== null;
  } finally {
    await attempt.finish(ok);
  }
  if (!user || !ok) throw wrongPassword();
  return { ...(await startSession({ db, environment }, user.id, PASSWORD_SIGN_IN, now)), user };
}

export async function sessionUser(db: Db, token: string | undefined, now: Date): Promise<SessionUser | undefined> {
  if (!token || !SESSION_TOKEN.test(token) || token.length > 100) return undefined;
  const session = await db.session.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: { select: { email: true, palmVerified: true } } } });
  if (!session || session.revokedAt || session.expiresAt <= now) return undefined;
  return {
    sessionId: session.id,
    userId: session.userId,
    email: session.user.email,
    authTime: session.createdAt,
    palmVerified: session.user.palmVerified,
    acr: isAcr(session.acr) ? session.acr : 'pwd',
    amr: session.amr,
  };
}

/** Ends the session of `token`; answers its id when this call ended it (so its clients can be told once). */
export async function signOut(db: Db, token: string | undefined, now: Date): Promise<string | undefined> {
  if (!token || !SESSION_TOKEN.test(token) || token.length > 100) return undefined;
  const [ended] = await db.$queryRaw<{ id: string }[]>`
    UPDATE "Session" SET "revokedAt" = ${now} WHERE "tokenHash" = ${sha256Hex(token)} AND "revokedAt" IS NULL RETURNING id`;
  return ended?.id;
}

/**
 * Ends every live session of `userId` but `keep` (the one the request itself presents, if any), in
 * the caller's transaction, or only those signed in with the passkey `signedInWith`; answers the
 * ended ones' ids, so the caller tells their clients (logout.sessionEnded) once the change is committed.
 */
export async function signOutEverywhere(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  userId: string,
  now: Date,
  keep: string | undefined,
  signedInWith?: { passkeyId: string },
): Promise<string[]> {
  const passkeyId = signedInWith?.passkeyId ?? null;
  const ended = await db.$queryRaw<{ id: string }[]>`
    UPDATE "Session" SET "revokedAt" = ${now}
    WHERE "userId" = ${userId}::uuid AND "revokedAt" IS NULL AND "expiresAt" > ${now} AND (${keep ?? null}::uuid IS NULL OR id <> ${keep ?? null}::uuid)
      AND (${passkeyId}::uuid IS NULL OR "passkeyId" = ${passkeyId}::uuid)
    RETURNING id`;
  return ended.map((s) => s.id);
}
