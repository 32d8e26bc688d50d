/**
 * Key attestations (OpenID4VCI 1.0 Appendix D): a wallet provider vouches that the keys it lists
 * (`attested_keys`) are held by a wallet, and how (`key_storage`, `user_authentication`). An issuer
 * takes one as a proof of its own (proof type `attestation`, with a `nonce`) or inside a `jwt`
 * proof's header (`key_attestation`), where it must list the proof's key.
 */
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { ATTESTATION_ALGORITHMS, AttestationError, type WalletProviders } from './providers.js';

export const KEY_ATTESTATION_TYP = 'key-attestation+jwt';
const CLOCK_SKEW_SECONDS = 60;
/** How long ago a key attestation may have been made when it carries no exp. */
const MAX_AGE_WITHOUT_EXP_SECONDS = 24 * 3600;

export interface KeyAttestation {
  provider: string;
  attestedKeys: JWK[];
  nonce: string | undefined;
  keyStorage: string[] | undefined;
  userAuthentication: string[] | undefined;
  /** Its Token Status List entry, where the provider can revoke the wallet unit (OpenID4VCI 1.0 Appendix D.1). */
  status: { uri: string; idx: number } | undefined;
}

export async function verifyKeyAttestation(jwt: string, check: { providers: WalletProviders; now: Date }): Promise<KeyAttestation> {
  try {
    const header = decodeProtectedHeader(jwt);
    if (header.typ !== KEY_ATTESTATION_TYP) throw new AttestationError(`its typ must be ${KEY_ATTESTATION_TYP}`);
    const signer = await check.providers.signingKey(decodeJwt(jwt).iss, header, check.now);
    const { payload } = await jwtVerify(jwt, signer.key, {
      typ: KEY_ATTESTATION_TYP,
      algorithms: [...ATTESTATION_ALGORITHMS],
      currentDate: check.now,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['iat', 'attested_keys'],
      ...(decodeJwt(jwt).exp === undefined ? { maxTokenAge: MAX_AGE_WITHOUT_EXP_SECONDS } : {}),
    });
    const keys = payload.attested_keys;
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > 100 || !keys.every((k) => k && typeof k === 'object' && !('d' in k)))
      throw new AttestationError('its attested_keys must be a list of 1 to 100 public JWKs');
    const strings = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined);
    const entry = (payload.status as { status_list?: { uri?: unknown; idx?: unknown } } | undefined)?.status_list;
    if (payload.status !== undefined && !(typeof entry?.uri === 'string' && Number.isInteger(entry.idx) && (entry.idx as number) >= 0))
      throw new AttestationError('its status must be {status_list: {uri, idx}}');
    return {
      provider: signer.provider,
      attestedKeys: keys as JWK[],
      nonce: typeof payload.nonce === 'string' ? payload.nonce : undefined,
      keyStorage: strings(payload.key_storage),
      userAuthentication: strings(payload.user_authentication),
      status: entry ? { uri: entry.uri as string, idx: entry.idx as number } : undefined,
    };
  } catch (err) {
    if (err instanceof AttestationError) throw new AttestationError(`The key attestation: ${err.message}`);
    const code = (err as { code?: string }).code;
    throw new AttestationError(
      `The key attestation: ${code === 'ERR_JWT_EXPIRED' ? 'it has expired' : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'its signature does not verify' : 'it is not a valid JWT of its type'}`,
    );
  }
}

/** Whether `attestation` lists `key` (by RFC 7638 thumbprint, whatever other members either carries). */
export async function attests(attestation: KeyAttestation, key: JWK): Promise<boolean> {
  const wanted = await calculateJwkThumbprint(key);
  for (const attested of attestation.attestedKeys) if ((await calculateJwkThumbprint(attested).catch(() => '')) === wanted) return true;
  return false;
}
