import type { Db } from '@svc/db';
import { HttpError, RateLimitedError, UnauthorizedError } from '@svc/http';
import type { Cache } from '@svc/kv';
import { DUMMY_PASSWORD_HASH, randomBase62, sha256Hex, verifyPassword } from '@svc/secrets';

export const SESSION_TTL_SECONDS = 12 * 3600;
// Failed sign-ins allowed per window before further attempts wait it out.
const ACCOUNT_FAILURES = 5;
const ADDRESS_FAILURES = 20;
const FAILURE_WINDOW_SECONDS = 15 * 60;

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  authTime: Date;
}

/**
 * Email + password sign-in. Failures are counted per account and per client address in the
 * shared store; past the threshold, attempts are refused with 429 until the window passes, so
 * guessing is slowed on every replica. Unknown emails cost the same scrypt work as known ones.
 */
export async function signIn(db: Db, cache: Cache, input: { email: string; password: string; address: string }, now: Date) {
  const email = input.email.trim().toLowerCase();
  const keys = [`login-fail:acct:${sha256Hex(email)}`, `login-fail:addr:${input.address}`];
  const [account, address] = await Promise.all(keys.map(async (k) => Number((await cache.get(k)) ?? 0)));
  if (account! >= ACCOUNT_FAILURES || address! >= ADDRESS_FAILURES) {
    throw new RateLimitedError(FAILURE_WINDOW_SECONDS, 'Too many failed sign-ins; try again later');
  }
  const user = await db.user.findUnique({ where: { email } });
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) {
    await Promise.all(keys.map((k) => cache.increment(k, FAILURE_WINDOW_SECONDS)));
    throw new UnauthorizedError('The email or password is wrong', 'invalid_credentials');
  }
  await cache.delete(keys[0]!);
  const token = `svcsess_${randomBase62(43)}`;
  const session = await db.session.create({
    data: { userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000) },
  });
  return { token, session, user };
}

export async function sessionUser(db: Db, token: string | undefined, now: Date): Promise<SessionUser | undefined> {
  if (!token || !token.startsWith('svcsess_') || token.length > 100) return undefined;
  const session = await db.session.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: { select: { email: true } } } });
  if (!session || session.revokedAt || session.expiresAt <= now) return undefined;
  return { sessionId: session.id, userId: session.userId, email: session.user.email, authTime: session.createdAt };
}

export async function signOut(db: Db, token: string | undefined, now: Date): Promise<void> {
  if (!token) return;
  await db.session.updateMany({ where: { tokenHash: sha256Hex(token), revokedAt: null }, data: { revokedAt: now } });
}

export class SessionRequiredError extends HttpError {
  constructor() {
    super(401, 'login_required', 'Sign in first: a session cookie or Authorization: Bearer <session_token> is required', {
      'WWW-Authenticate': 'Bearer realm="svc"',
    });
  }
}
