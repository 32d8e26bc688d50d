import type { Db } from '@svc/db';
import type { Cache } from '@svc/kv';
import { DUMMY_PASSWORD_HASH, randomBase62, sha256Hex, verifyPassword } from '@svc/secrets';
import { signInSlowedDown, wrongPassword } from '../errors.js';

export const SESSION_TTL_SECONDS = 12 * 3600;

/**
 * Failed sign-ins slow down further attempts; they never lock an account. Delays are kept per
 * (account, source address), so an attacker's guesses never delay the owner signing in from
 * elsewhere, and per source address, with a low ceiling, so one address cannot spray many
 * accounts quickly but a shared proxy is only slowed, never shut out.
 */
const THROTTLES = [
  { scope: 'account-source', free: 3, maxDelaySeconds: 60 },
  { scope: 'source', free: 20, maxDelaySeconds: 10 },
] as const;
const FAILURE_MEMORY_SECONDS = 15 * 60;

/** 1 s after the first failure past the free ones, doubling with each further failure, up to the ceiling. */
export function delayAfter(failures: number, free: number, maxDelaySeconds: number): number {
  return failures <= free ? 0 : Math.min(2 ** (failures - free - 1), maxDelaySeconds);
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  authTime: Date;
  palmVerified: boolean;
}

function throttleKeys(email: string, address: string) {
  const account = sha256Hex(email);
  return [`login-fail:as:${account}:${address}`, `login-fail:src:${address}`] as const;
}

/**
 * Email + password sign-in. An attempt that comes before the delay earned by earlier failures
 * is answered 429 with Retry-After, without checking the password. Unknown emails cost the same
 * scrypt work as known ones.
 */
export async function signIn(db: Db, cache: Cache, input: { email: string; password: string; address: string }, now: Date) {
  const email = input.email.trim().toLowerCase();
  const keys = throttleKeys(email, input.address);
  const waits = await Promise.all(keys.map(async (k) => Number((await cache.get(`${k}:until`)) ?? 0)));
  const until = Math.max(...waits);
  if (until > now.getTime()) throw signInSlowedDown((until - now.getTime()) / 1000);

  const user = await db.user.findUnique({ where: { email } });
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) {
    await Promise.all(
      keys.map(async (key, i) => {
        const { free, maxDelaySeconds } = THROTTLES[i]!;
        const delay = delayAfter(await cache.increment(key, FAILURE_MEMORY_SECONDS), free, maxDelaySeconds);
        // Kept as long as the failures are; whether the wait is over is the clock's to say.
        if (delay > 0) await cache.set(`${key}:until`, String(now.getTime() + delay * 1000), FAILURE_MEMORY_SECONDS);
      }),
    );
    throw wrongPassword();
  }
  await cache.delete(keys[0], `${keys[0]}:until`);
  const token = `svcsess_${randomBase62(43)}`;
  const session = await db.session.create({
    data: { userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000) },
  });
  return { token, session, user };
}

export async function sessionUser(db: Db, token: string | undefined, now: Date): Promise<SessionUser | undefined> {
  if (!token?.startsWith('svcsess_') || token.length > 100) return undefined;
  const session = await db.session.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: { select: { email: true, palmVerified: true } } } });
  if (!session || session.revokedAt || session.expiresAt <= now) return undefined;
  return { sessionId: session.id, userId: session.userId, email: session.user.email, authTime: session.createdAt, palmVerified: session.user.palmVerified };
}

export async function signOut(db: Db, token: string | undefined, now: Date): Promise<void> {
  if (!token) return;
  await db.session.updateMany({ where: { tokenHash: sha256Hex(token), revokedAt: null }, data: { revokedAt: now } });
}
