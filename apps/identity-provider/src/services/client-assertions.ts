import type { Cache } from '@svc/kv';
import type { Clock } from '@svc/runtime';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, type JSONWebKeySet, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { invalidClient } from '../errors.js';
import type { Application } from './clients.js';

/** Asymmetric algorithms only: a client's assertion never rests on a shared secret. */
export const ASSERTION_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
// An assertion is a one-time proof, not a credential: it may live a few minutes at most.
const MAX_LIFETIME_SECONDS = 300;

/**
 * RFC 7523 §3 client assertions (private_key_jwt): signed by a key of the client's registered
 * JWK Set, `iss` and `sub` its client_id, `aud` this issuer or its token endpoint, a short `exp`,
 * and a `jti` never seen before (kept in the shared store until the assertion expires, so a
 * replay is refused by every replica).
 */
export class ClientAssertions {
  private readonly remote = new Map<string, JWTVerifyGetKey>();

  constructor(
    private readonly issuer: string,
    private readonly cache: Cache,
    private readonly clock: Clock,
  ) {}

  /** The client_id an assertion claims, before anything is verified (for the lookup only). */
  static claimedClient(assertion: string): string | undefined {
    try {
      const { iss, sub } = decodeJwt(assertion);
      return typeof sub === 'string' && sub === iss ? sub : undefined;
    } catch {
      return undefined;
    }
  }

  private keysOf(app: Application): JWTVerifyGetKey | undefined {
    if (app.jwks) return createLocalJWKSet(app.jwks as unknown as JSONWebKeySet);
    if (!app.jwksUri) return undefined;
    let keys = this.remote.get(app.jwksUri);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(app.jwksUri), { timeoutDuration: 3_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
      this.remote.set(app.jwksUri, keys);
    }
    return keys;
  }

  async verify(app: Application, assertion: string): Promise<void> {
    const keys = this.keysOf(app);
    if (!keys) throw invalidClient('This client has no registered keys for private_key_jwt');
    const now = this.clock.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(assertion, keys, {
        algorithms: ASSERTION_ALGORITHMS,
        issuer: app.clientId,
        subject: app.clientId,
        audience: [this.issuer, `${this.issuer}/oauth/token`],
        requiredClaims: ['exp', 'jti'],
        currentDate: now,
        clockTolerance: 30,
      }));
    } catch (err) {
      throw invalidClient(`The client assertion is not valid: ${(err as Error).message}`);
    }
    const remaining = payload.exp! - Math.floor(now.getTime() / 1000);
    if (remaining > MAX_LIFETIME_SECONDS) throw invalidClient(`The client assertion must expire within ${MAX_LIFETIME_SECONDS} seconds`);
    const uses = await this.cache.increment(`assertion-jti:${app.clientId}:${payload.jti}`, Math.max(remaining, 0) + 60);
    if (uses > 1) throw invalidClient('The client assertion was already used (jti replay)');
  }
}
