/**
 * SD-JWT VC presentations (IETF SD-JWT VC; OpenID4VP 1.0 Appendix B.3): the issuer's signature by
 * its `x5c` chain to a trusted root (HAIP 1.0), the key binding JWT by the key in `cnf` with this
 * request's nonce and audience, the disclosures against their digests, the Token Status List entry
 * and the validity window. @sd-jwt/core does the SD-JWT work and @sd-jwt/jwt-status-list reads
 * another issuer's list; this file decides whom to trust. This issuer's own credentials are
 * checked against its records (ownVoucher), fresher than any signed list.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { SDJwtInstance, type SdJwtPayload } from '@sd-jwt/core';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { Refusal, refuse } from '../refusals.js';
import { certificateIssuerNamed, leafNames, trustedChain } from './trust.js';
import { checkRequestedClaims } from './claim-paths.js';
import { disclosurePaths, unrequestedDisclosure } from './disclosure-paths.js';
import type { FormatVerifier, PresentationContext } from './presented.js';

/** Each algorithm with its hash and the one curve its key must be on (an RSA key never passes for ES256). */
const ALGORITHMS: Record<string, { hash: string; curve: string }> = {
  ES256: { hash: 'sha256', curve: 'prime256v1' },
  ES384: { hash: 'sha384', curve: 'secp384r1' },
  ES512: { hash: 'sha512', curve: 'secp521r1' },
};
/** How far a key binding's `iat` may be from now. */
const KEY_BINDING_SKEW_SECONDS = 300;
/** Members of an SD-JWT VC that say how it works rather than what it vouches for. */
const TECHNICAL = new Set(['iss', 'vct', 'vct#integrity', 'cnf', 'status', 'iat', 'exp', 'nbf', 'jti', 'sub', '_sd', '_sd_alg']);

const hasher = (data: string | ArrayBuffer, alg: string) => {
  if (alg !== 'sha-256') throw new Refusal('disclosures', `The digest algorithm ${alg} is not accepted (sha-256 is)`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

function verifies(data: string, signature: string, key: KeyObject, alg: unknown): boolean {
  const algorithm = typeof alg === 'string' ? ALGORITHMS[alg] : undefined;
  if (!algorithm || key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== algorithm.curve) return false;
  return verify(algorithm.hash, Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
}

function decoded<T>(what: () => T, message: string): T {
  try {
    return what();
  } catch {
    return refuse('vp_token', message);
  }
}

/** The issuer's key, once its chain is trusted and its certificate names the credential's `iss`. */
async function issuerKey(jwt: string, context: PresentationContext, expectedTyp: string) {
  const header = decoded(() => decodeProtectedHeader(jwt), 'The issuer-signed JWT cannot be read');
  if (header.typ !== expectedTyp) refuse('format', `The issuer-signed JWT's typ is ${String(header.typ)}, not ${expectedTyp}`);
  if (!Array.isArray(header.x5c) || !header.x5c.every((c) => typeof c === 'string'))
    refuse('issuer_trust', 'The issuer-signed JWT carries no x5c certificate chain (HAIP 1.0)');
  const chain = await trustedChain(header.x5c!, context.anchors, context.now, 'credential');
  return { ...chain, alg: header.alg, key: createPublicKey({ key: Buffer.from(chain.leaf.publicKey.rawData), format: 'der', type: 'spki' }) };
}

/** The key binding JWT's own claims, checked before the library checks its signature and `sd_hash`. */
function checkKeyBinding(kbJwt: string, context: PresentationContext): string {
  const header = decoded(() => decodeProtectedHeader(kbJwt), 'The key binding JWT cannot be read');
  const payload = decoded(() => decodeJwt(kbJwt), 'The key binding JWT cannot be read');
  if (header.typ !== 'kb+jwt') refuse('key_binding', 'The key binding JWT’s typ must be kb+jwt');
  if (payload.nonce !== context.nonce) refuse('nonce', 'The key binding JWT’s nonce is not this request’s');
  if (payload.aud !== context.audience) refuse('audience', `The key binding JWT is for ${JSON.stringify(payload.aud)}, not ${context.audience}`);
  const now = context.now.getTime() / 1000;
  if (typeof payload.iat !== 'number' || Math.abs(payload.iat - now) > KEY_BINDING_SKEW_SECONDS)
    refuse('key_binding', 'The key binding JWT’s iat is missing or more than five minutes from now');
  return String(header.alg);
}

/** The library's failure, as the check it belongs to. */
function asRefusal(err: unknown): Refusal {
  if (err instanceof Refusal) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/status/i.test(message))
    return new Refusal('status', /not valid/i.test(message) ? 'The credential is revoked or suspended' : `The status could not be checked: ${message}`);
  if (/key binding|sd_hash|kb/i.test(message)) return new Refusal('key_binding', `The key binding does not hold: ${message}`);
  if (/disclosure|digest|_sd/i.test(message)) return new Refusal('disclosures', `The disclosures do not match the credential: ${message}`);
  if (/expired|exp|nbf|iat/i.test(message)) return new Refusal('validity', `The credential is not valid now: ${message}`);
  return new Refusal('issuer_signature', `The issuer’s signature does not hold: ${message}`);
}

/**
 * Another issuer's Token Status List entry: its list fetched (context.statusList), a
 * `statuslist+jwt` for that URI, signed by a chain to a trusted root whose leaf names the
 * credential's own issuer, and the credential's bit unset.
 */
async function checkForeignStatus(
  context: PresentationContext,
  credentialIssuer: { underOwnCa: boolean },
  iss: string,
  status: { uri?: unknown; idx?: unknown },
) {
  if (typeof status.uri !== 'string' || typeof status.idx !== 'number' || !Number.isInteger(status.idx) || status.idx < 0)
    refuse('status', 'The credential’s status entry is not {status_list: {uri, idx}}');
  const uri = status.uri as string;
  const jwt = await context.statusList(uri);
  const list = await issuerKey(jwt, context, 'statuslist+jwt');
  if (!leafNames(list.leaf, iss) || list.underOwnCa !== credentialIssuer.underOwnCa)
    refuse('status', 'The status list is signed by another issuer than the credential');
  const [header, body, signature] = jwt.split('.');
  if (!signature || !verifies(`${header}.${body}`, signature, list.key, list.alg)) refuse('status', 'The status list’s signature does not hold');
  const claims = decoded(() => decodeJwt(jwt), 'The status list token cannot be read');
  if (claims.sub !== uri) refuse('status', `The status list token at ${uri} is for ${String(claims.sub)}`);
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= context.now.getTime()) refuse('status', 'The status list token has expired');
  let value: number;
  try {
    value = getListFromStatusListJWT(jwt).getStatus(status.idx as number);
  } catch {
    return refuse('status', 'The status list does not hold the credential’s entry');
  }
  if (value !== 0) refuse('status', 'The credential is revoked or suspended');
}

export const verifySdJwtVc: FormatVerifier = async (presented, context) => {
  if (typeof presented !== 'string') return refuse('vp_token', 'An SD-JWT VC presentation is a string: <issuer-signed JWT>~<disclosures>~<key binding JWT>');
  const presentation = presented;
  const parts = presentation.split('~');
  const kbJwt = parts.at(-1);
  if (parts.length < 2) refuse('vp_token', 'An SD-JWT VC presentation is <issuer-signed JWT>~<disclosures>~<key binding JWT>');
  if (!kbJwt) refuse('key_binding', 'The presentation carries no key binding JWT');
  const issuer = await issuerKey(parts[0]!, context, 'dc+sd-jwt');
  const payload = decoded(() => decodeJwt(parts[0]!), 'The issuer-signed JWT cannot be read');
  if (typeof payload.iss !== 'string' || !leafNames(issuer.leaf, payload.iss))
    refuse('issuer_trust', `The issuer’s certificate does not name the credential’s iss (${String(payload.iss)})`);
  if (!certificateIssuerNamed(context.anchors, (issuer) => issuer === payload.iss))
    refuse('issuer_trust', `This request trusts other issuers than ${payload.iss}`);
  // This issuer's URL and credential types are vouched for by its own CA only, and its credentials are always revocable.
  const own = payload.iss === context.issuerUrl || (typeof payload.vct === 'string' && payload.vct.startsWith(`${context.issuerUrl}/credential-types/`));
  if (own && !(issuer.underOwnCa && payload.iss === context.issuerUrl))
    refuse('issuer_trust', 'Only this deployment’s own CA vouches for its issuer URL and its credential types');
  const status = (payload.status as { status_list?: { uri?: unknown; idx?: unknown } } | undefined)?.status_list;
  if (own && (typeof status?.uri !== 'string' || typeof status.idx !== 'number')) refuse('status', 'This issuer’s credential carries no status list entry');
  const now = context.now.getTime() / 1000;
  if (typeof payload.exp === 'number' && payload.exp <= now) refuse('validity', `The credential expired at ${new Date(payload.exp * 1000).toISOString()}`);
  if (typeof payload.nbf === 'number' && payload.nbf > now + 60) refuse('validity', 'The credential is not valid yet');
  const kbAlg = checkKeyBinding(kbJwt!, context);
  // The SD-JWT work (signature over the bytes, disclosures against digests, key binding) is the
  // library's; the status is checked below: this issuer's from its records, another's list fetched.
  const sdJwt = new SDJwtInstance<SdJwtPayload>({
    hasher,
    hashAlg: 'sha-256',
    verifier: (data, signature) => verifies(data, signature, issuer.key, issuer.alg),
    kbVerifier: (data, signature, issuerPayload) => {
      const jwk = (issuerPayload.cnf as { jwk?: JWK } | undefined)?.jwk;
      if (!jwk) throw new Refusal('key_binding', 'The credential names no holder key (cnf.jwk)');
      return verifies(data, signature, createPublicKey({ key: jwk as never, format: 'jwk' }), kbAlg);
    },
  });
  const verified = (await sdJwt
    .verify(presentation, { keyBindingNonce: context.nonce, currentDate: Math.floor(now), skewSeconds: 60 })
    .catch((err: unknown) => {
      throw asRefusal(err);
    })) as { payload: Record<string, unknown> };
  if (!own && status) await checkForeignStatus(context, issuer, payload.iss!, status);
  const decodedSdJwt = await sdJwt.decode(presentation);
  const disclosures = (decodedSdJwt.disclosures ?? []).map((d) => ({ key: d.key, value: d.value, digest: d._digest ?? '' }));
  const paths = disclosurePaths(payload, disclosures);
  if (paths.size !== disclosures.length) refuse('disclosures', 'The presentation carries a disclosure that is no part of the credential');
  const unrequested = unrequestedDisclosure(context.query, paths);
  if (unrequested !== undefined) refuse('unrequested_disclosure', `The wallet disclosed ${unrequested}, which the request did not ask for`);
  const vct = String(verified.payload.vct);
  const vcts = context.query.meta?.vct_values;
  if (vcts && !vcts.includes(vct)) refuse('type', `The credential is a ${vct}, not one of the types asked for`);
  const claims = Object.fromEntries(Object.entries(verified.payload).filter(([name]) => !TECHNICAL.has(name)));
  checkRequestedClaims(context.query, claims);
  const ownLists = `${context.issuerUrl}/token-status-lists/`;
  const statusUri = String(status?.uri);
  if (own && !statusUri.startsWith(ownLists)) refuse('status', 'This issuer’s credential names a status list that is not this issuer’s');
  const vouchedBy = own
    ? await context.ownVoucher({ statusList: { listId: statusUri.slice(ownLists.length).toLowerCase(), index: status!.idx as number } })
    : undefined;
  return {
    format: 'dc+sd-jwt',
    issuer: payload.iss!,
    type: vct,
    claims,
    expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : undefined,
    ...(vouchedBy ? { vouchedBy } : {}),
  };
};
