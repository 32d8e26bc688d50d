import type { AccessClaims } from './grant.js';

/**
 * Tokens whose signature and claims were already checked, by exact token string, per key set: a
 * client presents one access token many times in its lifetime, and RSA verification is the
 * costliest step of a bearer request. A key set with a key withdrawn starts an empty memo, and
 * expiry is checked on every use.
 */
export class VerifiedTokens {
  private keySet: unknown;
  private memo = new Map<string, AccessClaims>();

  constructor(private readonly max = 10_000) {}

  get(keySet: unknown, token: string): AccessClaims | undefined {
    if (keySet !== this.keySet) {
      this.keySet = keySet;
      this.memo = new Map();
    }
    return this.memo.get(token);
  }

  set(token: string, claims: AccessClaims): void {
    if (this.memo.size >= this.max) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(token, claims);
  }
}
