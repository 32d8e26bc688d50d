import { type Environment, marked } from './environments.js';
import { constantTimeEqual, randomBase62, sha256Hex } from './random.js';

/** Client secrets are 256-bit random values; SHA-256 at rest, compared in constant time. */
export function generateClientSecret(environment: Environment = 'production'): { secret: string; hash: string } {
  const secret = marked(environment, `svcs_${randomBase62(43)}`);
  return { secret, hash: hashClientSecret(secret) };
}

export function hashClientSecret(secret: string): string {
  return sha256Hex(secret);
}

export function verifyClientSecret(presented: string, storedHash: string): boolean {
  return constantTimeEqual(hashClientSecret(presented), storedHash);
}

export function generateClientId(environment: Environment = 'production'): string {
  return marked(environment, `svc_client_${randomBase62(20)}`);
}
