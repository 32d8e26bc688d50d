import type { Logger } from '@svc/http';
import { outboundFetch } from '@svc/http';
import type { Cache } from '@svc/kv';
import type { Clock } from '@svc/runtime';
import { createLocalJWKSet, createRemoteJWKSet, customFetch, decodeJwt, type JSONWebKeySet, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { invalidClient } from '../errors.js';
import type { Application } from './application.js';
import { clientAlgorithms } from './fapi.js';

/** Asymmetric algorithms only: a client's assertion never rests on a shared secret. */
export const ASSERTION_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
// An assertion is a one-time proof, not a credential: it may live a few minutes at most.
const MAX_LIFETIME_SECONDS = 300;
// What an assertion's typ may say (none at all is the common case); and what only a request object carries.
const ASSERTION_TYPES = ['jwt', 'client-authentication+jwt'];
const REQUEST_MEMBERS = ['response_type', 'redirect_uri', 'scope', 'code_challenge', 'request_uri'];
// A request object may be made ahead of use, but not kept for long (FAPI 2.0: nbf no older than 60 minutes).
const REQUEST_OBJECT_MAX_SECONDS = 3600;

/**
 * RFC 7523 §3 client assertions (private_key_jwt): signed by a key of the client's registered
 * JWK Set, `iss` and `sub` its client_id, `aud` this issuer identifier as one string, a short
 * `exp`, and a `jti` never seen before (kept in the shared store until the assertion expires, so
 * a replay is refused by every replica). The audience rule is FAPI 2.0's and
 * draft-ietf-oauth-rfc7523bis's: an endpoint URL or an array would let an assertion a client made
 * for another server (or for several at once) be replayed here.
 */
export class ClientAssertions {
  private readonly remote = new Map<string, JWTVerifyGetKey>();

  constructor(
    private readonly issuer: string,
    private readonly cache: Cache,
    private readonly clock: Clock,
    /** JWKS_URI_ALLOW_PRIVATE: fetch keys from internal addresses too (development only). */
    private readonly allowInternalJwksUri = false,
    /** Where a jwks_uri refused for its internal address is logged, with the address. */
    private readonly log?: Logger,
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
      keys = createRemoteJWKSet(new URL(app.jwksUri), {
        timeoutDuration: 3_000,
        cooldownDuration: 30_000,
        cacheMaxAge: 600_000,
        // Never to this host or an internal network (SSRF), whatever the URI's name resolves to.
        [customFetch]: outboundFetch(this.allowInternalJwksUri, { ...(this.log ? { log: this.log } : {}) }),
      });
      this.remote.set(app.jwksUri, keys);
    }
    return keys;
  }

  /**
   * RFC 9101 §6.3: a request object signed by a key of the client's registered JWK Set with an
   * asymmetric algorithm (never `none`), `iss` the client, `aud` this issuer (one string), `exp`
   * required and at most an hour away, `nbf` (when given) not in the future nor over an hour back
   * (FAPI 2.0's bound), `typ` oauth-authz-req+jwt. Answers its claims; throws the
   * reason as a plain Error, for the caller to answer as invalid_request_object.
   */
  async verifyRequestObject(app: Application, requestObject: string): Promise<JWTPayload> {
    const keys = this.keysOf(app);
    if (!keys) throw new Error('this client has no registered keys (jwks or jwks_uri) to sign request objects with');
    const now = this.clock.now();
    const { payload, protectedHeader } = await jwtVerify(requestObject, keys, {
      algorithms: clientAlgorithms(app, ASSERTION_ALGORITHMS),
      issuer: app.clientId,
      audience: this.issuer,
      requiredClaims: ['exp'],
      currentDate: now,
      clockTolerance: 30,
    });
    // RFC 9101 §10.8: explicit typing, so that no other JWT of the client's (an assertion, say) passes as a request object.
    if (protectedHeader.typ?.toLowerCase() !== 'oauth-authz-req+jwt') throw new Error('typ must be oauth-authz-req+jwt');
    if (typeof payload.aud !== 'string') throw new Error(`aud must be the issuer identifier ${this.issuer} as one string`);
    const at = Math.floor(now.getTime() / 1000);
    if (payload.exp! - at > REQUEST_OBJECT_MAX_SECONDS) throw new Error(`exp must be at most ${REQUEST_OBJECT_MAX_SECONDS} seconds away`);
    if (payload.nbf !== undefined && at - payload.nbf > REQUEST_OBJECT_MAX_SECONDS)
      throw new Error(`nbf must be at most ${REQUEST_OBJECT_MAX_SECONDS} seconds back`);
    return payload;
  }

  async verify(app: Application, assertion: string): Promise<void> {
    const keys = this.keysOf(app);
    if (!keys) throw invalidClient('This client has no registered keys for private_key_jwt');
    const now = this.clock.now();
    let payload: JWTPayload;
    let typ: string | undefined;
    try {
      ({
        payload,
        protectedHeader: { typ },
      } = await jwtVerify(assertion, keys, {
        algorithms: clientAlgorithms(app, ASSERTION_ALGORITHMS),
        issuer: app.clientId,
        subject: app.clientId,
        audience: this.issuer,
        requiredClaims: ['exp', 'jti'],
        currentDate: now,
        clockTolerance: 30,
      }));
    } catch (err) {
      throw invalidClient(`The client assertion is not valid: ${(err as Error).message}`);
    }
    // A request object travels through the browser and is signed like an assertion: it must never
    // pass as one (its typ says what it is, and an assertion carries no authorization request).
    if (typ !== undefined && !ASSERTION_TYPES.includes(typ.toLowerCase())) throw invalidClient(`A client assertion's typ must be JWT, not ${typ}`);
    if (REQUEST_MEMBERS.some((member) => member in payload)) throw invalidClient('A client assertion carries no authorization request parameters');
    // jose accepts an array that contains the audience; only the one string is good here.
    if (typeof payload.aud !== 'string')
      throw invalidClient(`The client assertion's aud must be the issuer identifier ${this.issuer} as one string, not an array`);
    const remaining = payload.exp! - Math.floor(now.getTime() / 1000);
    if (remaining > MAX_LIFETIME_SECONDS) throw invalidClient(`The client assertion must expire within ${MAX_LIFETIME_SECONDS} seconds`);
    const uses = await this.cache.increment(`assertion-jti:${app.clientId}:${payload.jti}`, Math.max(remaining, 0) + 60);
    if (uses > 1) throw invalidClient('The client assertion was already used (jti replay)');
  }
}
