import { createHash, createHmac } from 'node:crypto';
import type { Cache } from '@svc/kv';
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, type JWTPayload, jwtVerify } from 'jose';

/** Proof algorithms accepted (advertised as dpop_signing_alg_values_supported). */
export const DPOP_ALGORITHMS = ['ES256', 'RS256', 'PS256', 'EdDSA'];
// A proof is fresh for this long around its iat (RFC 9449 §11.1); its jti is remembered as long.
const IAT_PAST_SECONDS = 300;
const IAT_FUTURE_SECONDS = 60;
const NONCE_STEP_MS = 5 * 60_000;

export interface DpopCheck {
  method: string;
  /** The request's URL as the client addressed it, without query or fragment (RFC 9449 §4.3). */
  url: string;
  /** At a resource: the access token the proof must hash into `ath`. */
  accessToken?: string | undefined;
  /** Whether a current server nonce is required (the identity provider's token endpoint always asks for one). */
  requireNonce: boolean;
  /** The algorithms this client's proofs may use (fewer for a FAPI 2.0 client); DPOP_ALGORITHMS when absent. */
  algorithms?: string[] | undefined;
}

/** How a service words a refusal: an invalid proof, and "sign it with this nonce" (RFC 9449 §8). */
export interface DpopRefusals {
  invalid(description: string): Error;
  useNonce(nonce: string): Error;
}

export interface DpopOptions {
  cache: Cache;
  clock: { now(): Date };
  refusals: DpopRefusals;
  /**
   * Keys the server nonces; without it the service hands out none, requires none, and ignores a
   * `nonce` claim (it can only be one it never issued).
   */
  nonceSecret?: string | undefined;
}

const withoutQuery = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

/**
 * RFC 9449 DPoP proofs: signed by the public key in their own header, `typ` dpop+jwt, an accepted
 * asymmetric algorithm, `htm`/`htu` naming this request, a fresh `iat`, a `jti` never seen before
 * for that key (kept in the shared store, so replays are refused on every replica), `ath` at a
 * resource, and the server's nonce where one is required. Nonces are an HMAC of a five-minute time
 * step under the service secret: every replica issues and accepts the same ones without sharing
 * state; the current and the previous step are accepted.
 */
export class DpopProofs {
  constructor(private readonly options: DpopOptions) {}

  nonce(at = this.options.clock.now().getTime()): string {
    if (this.options.nonceSecret === undefined) throw new Error('this service issues no DPoP nonces');
    return createHmac('sha256', this.options.nonceSecret)
      .update(`dpop-nonce:${Math.floor(at / NONCE_STEP_MS)}`)
      .digest('base64url')
      .slice(0, 32);
  }

  private nonceIsCurrent(nonce: unknown): boolean {
    const now = this.options.clock.now().getTime();
    return nonce === this.nonce(now) || nonce === this.nonce(now - NONCE_STEP_MS);
  }

  /** Verifies `proof` for this request; returns the thumbprint of its key (`cnf.jkt`). */
  async verify(proof: string, check: DpopCheck): Promise<string> {
    const { refusals, clock, cache } = this.options;
    let payload: JWTPayload;
    let jwk: JWK;
    try {
      const verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: check.algorithms ?? DPOP_ALGORITHMS, currentDate: clock.now() });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk!;
    } catch (err) {
      throw refusals.invalid(`The DPoP proof is not valid: ${(err as Error).message}`);
    }
    if ('d' in jwk || 'k' in jwk) throw refusals.invalid('The DPoP proof header must carry a public key only');
    if (payload.htm !== check.method) throw refusals.invalid(`The DPoP proof's htm must be ${check.method}`);
    if (typeof payload.htu !== 'string' || !URL.canParse(payload.htu) || withoutQuery(payload.htu) !== withoutQuery(check.url))
      throw refusals.invalid(`The DPoP proof's htu must be ${withoutQuery(check.url)}`);
    const now = Math.floor(clock.now().getTime() / 1000);
    if (typeof payload.iat !== 'number' || payload.iat < now - IAT_PAST_SECONDS || payload.iat > now + IAT_FUTURE_SECONDS)
      throw refusals.invalid('The DPoP proof is too old or from the future (iat)');
    if (typeof payload.jti !== 'string' || payload.jti.length < 8 || payload.jti.length > 200) throw refusals.invalid('The DPoP proof needs a unique jti');
    if (check.accessToken !== undefined) {
      const ath = createHash('sha256').update(check.accessToken).digest('base64url');
      if (payload.ath !== ath) throw refusals.invalid('The DPoP proof’s ath does not match the access token');
    }
    if (this.options.nonceSecret !== undefined && (check.requireNonce || payload.nonce !== undefined) && !this.nonceIsCurrent(payload.nonce))
      throw refusals.useNonce(this.nonce());
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    const uses = await cache.increment(`dpop-jti:${jkt}:${payload.jti}`, IAT_PAST_SECONDS + IAT_FUTURE_SECONDS);
    if (uses > 1) throw refusals.invalid('The DPoP proof was already used (jti replay)');
    return jkt;
  }
}
