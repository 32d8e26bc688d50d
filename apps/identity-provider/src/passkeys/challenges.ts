import type { Cache } from '@svc/kv';
import { randomBase62, sha256Hex } from '@svc/secrets';
import { passkeyChallengeInvalid } from '../errors.js';

/**
 * WebAuthn challenges, kept in the store's cache until used. Each is single-use (taken by deleting
 * it: of two requests with one challenge only the one whose delete removed it goes on), short-lived,
 * and bound to its purpose, and a registration's also to the person it was made for, so that a
 * challenge one flow handed out cannot be spent in another.
 */
export const CHALLENGE_TTL_SECONDS = 300;

type Purpose = 'register' | 'sign-in';
interface Stored {
  purpose: Purpose;
  challenge: string;
  userId?: string;
  /** Checked against the service's clock as well as the cache's TTL, so expiry is testable without waiting. */
  expiresAt: number;
}

// A registration has no id of its own in the API (its body is the credential alone): it is found by
// the challenge inside the signed client data. A sign-in's is a random id handed out with it.
const registrationKey = (challenge: string) => `passkey:register:${sha256Hex(challenge)}`;
const signInKey = (challengeId: string) => `passkey:sign-in:${sha256Hex(challengeId)}`;

export class PasskeyChallenges {
  constructor(
    private readonly cache: Cache,
    private readonly now: () => Date,
  ) {}

  async forRegistration(challenge: string, userId: string): Promise<void> {
    await this.put(registrationKey(challenge), { purpose: 'register', challenge, userId });
  }

  /** A sign-in's challenge, under a new id the caller sends back with the signed answer. */
  async forSignIn(challenge: string): Promise<string> {
    const challengeId = `pkc_${randomBase62(32)}`;
    await this.put(signInKey(challengeId), { purpose: 'sign-in', challenge });
    return challengeId;
  }

  /** Spends the registration challenge `challenge` of `userId`; 400 invalid_challenge when there is none to spend. */
  async takeRegistration(challenge: string, userId: string): Promise<string> {
    const stored = await this.take(registrationKey(challenge), 'register');
    if (stored.userId !== userId) throw passkeyChallengeInvalid();
    return stored.challenge;
  }

  async takeSignIn(challengeId: string): Promise<string> {
    return (await this.take(signInKey(challengeId), 'sign-in')).challenge;
  }

  private async put(key: string, value: Omit<Stored, 'expiresAt'>): Promise<void> {
    const stored: Stored = { ...value, expiresAt: this.now().getTime() + CHALLENGE_TTL_SECONDS * 1000 };
    await this.cache.set(key, JSON.stringify(stored), CHALLENGE_TTL_SECONDS);
  }

  private async take(key: string, purpose: Purpose): Promise<Stored> {
    const raw = await this.cache.get(key);
    if (raw === null || (await this.cache.delete(key)) === 0) throw passkeyChallengeInvalid();
    const stored = JSON.parse(raw) as Stored;
    if (stored.purpose !== purpose || stored.expiresAt <= this.now().getTime()) throw passkeyChallengeInvalid();
    return stored;
  }
}
