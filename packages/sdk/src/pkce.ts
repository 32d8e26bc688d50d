import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  /** Keep it: it goes with the code exchange. */
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** RFC 7636 with S256 (the only method the service accepts): a 43-character verifier. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: codeChallenge(verifier), method: 'S256' };
}

export function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable `state` (or `nonce`), to bind the redirect to the browser that started it. */
export function randomState(): string {
  return randomBytes(16).toString('base64url');
}
