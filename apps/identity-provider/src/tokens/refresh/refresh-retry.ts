import { setTimeout as sleep } from 'node:timers/promises';
import { deriveKey, seal, unseal } from '@svc/secrets';
import type { TokenContext } from '../token-context.js';
import { readRefreshToken } from './refresh-tokens.js';

/**
 * How long a rotated refresh token may be presented again for the answer its rotation gave: a
 * client whose answer was lost (a timeout, a dropped connection) retries, and must not lose its
 * grant for it. DESIGN.md allows at most 10 s; after that, reuse revokes the grant (RFC 9700 §4.14.2).
 */
export const REFRESH_RETRY_SECONDS = 10;

/** How long a request that lost a concurrent rotation waits for the winner's answer to be remembered. */
const WAIT_FOR_WINNER_MS = 1_500;
const POLL_MS = 25;

/** What a retry must repeat to get the remembered answer: the same DPoP key and the same narrowing. */
export interface RetryTerms {
  jkt: string | undefined;
  asked: string[] | undefined;
}

interface Remembered {
  jkt: string | null;
  asked: string | null;
  successorHash: string;
  response: object;
}

const keyOf = (presentedHash: string) => `rt-retry:${presentedHash}`;
const askedOf = (asked: string[] | undefined) => (asked ? asked.join(' ') : null);

/**
 * Remembers the answer to a rotation for the retry window. The answer holds live tokens, so it is
 * sealed with a key derived from the presented refresh token itself (and the server's secret): the store holds only its hash,
 * and what it keeps opens only for whoever still holds that token.
 */
export async function rememberRotation(
  ctx: TokenContext,
  presented: { token: string; hash: string },
  terms: RetryTerms,
  successorHash: string,
  response: object,
): Promise<void> {
  const entry: Remembered = { jkt: terms.jkt ?? null, asked: askedOf(terms.asked), successorHash, response };
  const sealed = seal(sealingKey(ctx, presented.token), JSON.stringify(entry), presented.hash);
  // The rotation is committed and its answer must reach the client: a store that cannot keep it
  // only costs the retry (which then counts as reuse, as before this window existed).
  await ctx.cache.set(keyOf(presented.hash), sealed, REFRESH_RETRY_SECONDS).catch(() => undefined);
}

/** Both the token and the server's secret: a copy of the store and an old token alone open nothing. */
const sealingKey = (ctx: TokenContext, token: string) => deriveKey(`${ctx.secret}:${token}`, 'refresh-retry');

/** The remembered entry, or null when there is none or the store cannot be read. */
const lookUp = (ctx: TokenContext, presentedHash: string) => ctx.cache.get(keyOf(presentedHash)).catch(() => null);

/**
 * The answer a rotation of this token gave, for a retry within the window by the same client with
 * the same key and scope, while the successor is still unused and the grant alive. `wait`: the
 * rotation may be in flight on a concurrent request, which remembers its answer a moment later.
 * Undefined means the presentation is reuse.
 */
export async function recallRotation(
  ctx: TokenContext,
  presented: { token: string; hash: string },
  terms: RetryTerms,
  options: { rotatedAt: Date | null; wait: boolean },
): Promise<object | undefined> {
  const now = ctx.clock.now();
  if (options.rotatedAt && now.getTime() - options.rotatedAt.getTime() > REFRESH_RETRY_SECONDS * 1000) return undefined;
  // Only a rotation that may still be in flight is worth waiting for.
  const inFlight = options.wait && (!options.rotatedAt || now.getTime() - options.rotatedAt.getTime() < WAIT_FOR_WINNER_MS);
  let sealed = await lookUp(ctx, presented.hash);
  const deadline = Date.now() + WAIT_FOR_WINNER_MS;
  while (!sealed && inFlight && Date.now() < deadline) {
    await sleep(POLL_MS);
    sealed = await lookUp(ctx, presented.hash);
  }
  if (!sealed) return undefined;
  let entry: Remembered;
  try {
    entry = JSON.parse(unseal(sealingKey(ctx, presented.token), sealed, presented.hash)) as Remembered;
  } catch {
    return undefined;
  }
  if (entry.jkt !== (terms.jkt ?? null) || entry.asked !== askedOf(terms.asked)) return undefined;
  // Once the successor has been used, or the grant has ended, the old token is only a stolen copy.
  const successor = await readRefreshToken(ctx.sql, entry.successorHash);
  const live =
    successor &&
    !successor.rotatedAt &&
    !successor.revokedAt &&
    successor.expiresAt > now &&
    (successor.status === 'approved' || successor.status === 'consumed');
  return live ? entry.response : undefined;
}
