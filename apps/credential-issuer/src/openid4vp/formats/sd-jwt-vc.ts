/**
 * SD-JWT VC presentations (IETF SD-JWT VC; OpenID4VP 1.0 Appendix B.3): the issuer's signature by
 * its `x5c` chain to a trusted root (HAIP 1.0), the key binding JWT by the key in `cnf` with this
 * request's nonce and audience, the disclosures against their digests, the Token Status List entry
 * and the validity window. @sd-jwt/sd-jwt-vc does the SD-JWT work; this file decides whom to trust.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { Refusal, refuse } from '../refusals.js';
import { certificateIssuerNamed, leafNames, trustedLeaf } from '../trust.js';
import { checkRequestedClaims } from './claim-paths.js';
import { type FormatVerifier, namedSegments, type PresentationContext } from './presented.js';

const HASHES: Record<string, string> = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };
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
  const hash = typeof alg === 'string' ? HASHES[alg] : undefined;
  if (!hash) return false;
  return verify(hash, Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
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
  const leaf = await trustedLeaf(header.x5c!, context.anchors, context.now);
  return { leaf, alg: header.alg, key: createPublicKey({ key: Buffer.from(leaf.publicKey.rawData), format: 'der', type: 'spki' }) };
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
  const now = context.now.getTime() / 1000;
  if (typeof payload.exp === 'number' && payload.exp <= now) refuse('validity', `The credential expired at ${new Date(payload.exp * 1000).toISOString()}`);
  if (typeof payload.nbf === 'number' && payload.nbf > now + 60) refuse('validity', 'The credential is not valid yet');
  const kbAlg = checkKeyBinding(kbJwt!, context);
  let statusListJwt = '';
  const sdJwt = new SDJwtVcInstance({
    hasher,
    hashAlg: 'sha-256',
    verifier: (data, signature) => verifies(data, signature, issuer.key, issuer.alg),
    kbVerifier: (data, signature, issuerPayload) => {
      const jwk = (issuerPayload.cnf as { jwk?: JWK } | undefined)?.jwk;
      if (!jwk) throw new Refusal('key_binding', 'The credential names no holder key (cnf.jwk)');
      return verifies(data, signature, createPublicKey({ key: jwk as never, format: 'jwk' }), kbAlg);
    },
    // Never the library's own fetch: this issuer's lists are read locally, another's through the guarded fetch.
    statusListFetcher: async (uri) => {
      statusListJwt = await context.statusList(uri);
      const sub = decoded(() => decodeJwt(statusListJwt), 'The status list token cannot be read').sub;
      if (sub !== uri) throw new Refusal('status', `The status list token at ${uri} is for ${String(sub)}`);
      return statusListJwt;
    },
    // The list is signed like the credential: by a certificate chain to a trusted root.
    statusVerifier: async (data, signature) => {
      const list = await issuerKey(statusListJwt, context, 'statuslist+jwt');
      return verifies(data, signature, list.key, list.alg);
    },
  });
  const verified = await sdJwt.verify(presentation, { keyBindingNonce: context.nonce, currentDate: Math.floor(now), skewSeconds: 60 }).catch((err: unknown) => {
    throw asRefusal(err);
  });
  const allowed = namedSegments(context.query);
  if (allowed)
    for (const disclosure of (await sdJwt.decode(presentation)).disclosures ?? [])
      if (disclosure.key !== undefined && !allowed.has(disclosure.key))
        refuse('unrequested_disclosure', `The wallet disclosed ${disclosure.key}, which the request did not ask for`);
  const vct = String(verified.payload.vct);
  const vcts = context.query.meta?.vct_values;
  if (vcts && !vcts.includes(vct)) refuse('type', `The credential is a ${vct}, not one of the types asked for`);
  const claims = Object.fromEntries(Object.entries(verified.payload).filter(([name]) => !TECHNICAL.has(name)));
  checkRequestedClaims(context.query, claims);
  return {
    format: 'dc+sd-jwt',
    issuer: payload.iss!,
    type: vct,
    claims,
    expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : undefined,
  };
};
