/**
 * OAuth 2.0 Attestation-Based Client Authentication (the IETF draft HAIP 1.0 names): a wallet
 * instance authenticates with a client attestation its wallet provider signed
 * (`OAuth-Client-Attestation`: `sub` its client_id, `cnf.jwk` the instance's key) and a proof of
 * possession of that key made for this server (`OAuth-Client-Attestation-PoP`: `aud`, `jti`,
 * `iat`). Both are checked whenever they are presented; a PoP's `jti` is taken once.
 */
import { decodeJwt, decodeProtectedHeader, importJWK, type JWK, type JWTPayload, jwtVerify } from 'jose';
import { ATTESTATION_ALGORITHMS, AttestationError, type WalletProviders } from './providers.js';

export const CLIENT_ATTESTATION_HEADER = 'OAuth-Client-Attestation';
export const CLIENT_ATTESTATION_POP_HEADER = 'OAuth-Client-Attestation-PoP';
export const ATTEST_JWT_CLIENT_AUTH = 'attest_jwt_client_auth';
const ATTESTATION_TYP = 'oauth-client-attestation+jwt';
const POP_TYP = 'oauth-client-attestation-pop+jwt';
/** How old a PoP may be, and how far a wallet's clock may run ahead. */
const POP_MAX_AGE_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 60;
const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface AttestedClient {
  /** The attestation's `sub`: the wallet's client_id. */
  clientId: string;
  /** The wallet provider that vouched for it (its `iss`). */
  provider: string;
  /** The wallet instance's key (`cnf.jwk`). */
  instanceKey: JWK;
}

export interface ClientAttestationCheck {
  providers: WalletProviders;
  /** This server's issuer identifier, which the PoP must name as its `aud`. */
  audience: string;
  now: Date;
  /** Remembers a PoP's jti for `ttlSeconds`: false when it was already remembered (a replay). */
  remember: (jti: string, ttlSeconds: number) => Promise<boolean>;
}

/** The two headers of a request, as a header getter reads them: both, neither (undefined), or an error for one alone. */
export function presentedAttestation(header: (name: string) => string | undefined): { attestation: string; pop: string } | undefined {
  const attestation = header(CLIENT_ATTESTATION_HEADER);
  const pop = header(CLIENT_ATTESTATION_POP_HEADER);
  if (attestation === undefined && pop === undefined) return undefined;
  if (attestation === undefined || pop === undefined)
    throw new AttestationError(`send both ${CLIENT_ATTESTATION_HEADER} and ${CLIENT_ATTESTATION_POP_HEADER}, or neither`);
  if (!COMPACT_JWT.test(attestation) || !COMPACT_JWT.test(pop)) throw new AttestationError('both headers must hold one compact JWT each');
  return { attestation, pop };
}

const refuse = (what: string, err: unknown): never => {
  if (err instanceof AttestationError) throw new AttestationError(`The wallet attestation${what}: ${err.message}`);
  const claim = (err as { claim?: string }).claim;
  const code = (err as { code?: string }).code;
  const reason =
    code === 'ERR_JWT_EXPIRED'
      ? 'it has expired'
      : claim
        ? `its ${claim} is not as required`
        : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
          ? 'its signature does not verify'
          : 'it is not a valid JWT of its type';
  throw new AttestationError(`The wallet attestation${what}: ${reason}`);
};

export async function verifyClientAttestation(presented: { attestation: string; pop: string }, check: ClientAttestationCheck): Promise<AttestedClient> {
  // The attestation: signed by a trusted wallet provider, unexpired, naming a client and an instance key.
  let attestation: JWTPayload & { sub: string; cnf: { jwk: JWK } };
  let provider: string;
  try {
    const header = decodeProtectedHeader(presented.attestation);
    if (header.typ !== ATTESTATION_TYP) throw new AttestationError(`its typ must be ${ATTESTATION_TYP}`);
    const signer = await check.providers.signingKey(decodeJwt(presented.attestation).iss, header, check.now);
    provider = signer.provider;
    const { payload } = await jwtVerify(presented.attestation, signer.key, {
      typ: ATTESTATION_TYP,
      algorithms: [...ATTESTATION_ALGORITHMS],
      currentDate: check.now,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['iss', 'sub', 'exp', 'cnf'],
    });
    const jwk = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
    if (typeof payload.sub !== 'string' || payload.sub.length > 200) throw new AttestationError('its sub must be the client_id');
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk) throw new AttestationError('its cnf.jwk must be the wallet instance’s public key');
    attestation = payload as typeof attestation;
  } catch (err) {
    return refuse('', err);
  }
  // The PoP: made by the instance key, for this server, fresh, used once.
  try {
    const header = decodeProtectedHeader(presented.pop);
    if (header.typ !== POP_TYP) throw new AttestationError(`its typ must be ${POP_TYP}`);
    if (!ATTESTATION_ALGORITHMS.includes(header.alg as (typeof ATTESTATION_ALGORITHMS)[number]))
      throw new AttestationError(`its alg must be one of ${ATTESTATION_ALGORITHMS.join(', ')}`);
    const key = await importJWK(attestation.cnf.jwk, header.alg);
    const { payload } = await jwtVerify(presented.pop, key, {
      typ: POP_TYP,
      audience: check.audience,
      currentDate: check.now,
      maxTokenAge: POP_MAX_AGE_SECONDS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['jti', 'iat'],
    });
    if (payload.iss !== undefined && payload.iss !== attestation.sub) throw new AttestationError('its iss must be the attestation’s sub (the client_id)');
    if (typeof payload.jti !== 'string' || payload.jti.length > 200) throw new AttestationError('its jti must be a string of at most 200 characters');
    if (!(await check.remember(`${attestation.sub}:${payload.jti}`, POP_MAX_AGE_SECONDS + 2 * CLOCK_SKEW_SECONDS)))
      throw new AttestationError('its jti was used before');
  } catch (err) {
    return refuse(' PoP', err);
  }
  return { clientId: attestation.sub, provider, instanceKey: attestation.cnf.jwk };
}

/**
 * The attestation a request presents (`header` reads its headers), checked, and the client it
 * names held to the request's `client_id`: a client_id that differs is refused, and so is none
 * at all where `clientIdRequired`. Undefined when the request presents no attestation.
 */
export async function attestedClientOf(
  header: (name: string) => string | undefined,
  clientId: unknown,
  check: ClientAttestationCheck & { clientIdRequired?: boolean },
): Promise<AttestedClient | undefined> {
  const presented = presentedAttestation(header);
  if (!presented) return undefined;
  const client = await verifyClientAttestation(presented, check);
  if ((clientId !== undefined || check.clientIdRequired) && clientId !== client.clientId)
    throw new AttestationError('the request’s client_id must be the client the wallet attestation names (its sub)');
  return client;
}
