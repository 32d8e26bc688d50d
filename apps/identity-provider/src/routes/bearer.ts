import type { Request } from 'express';
import type { AppDeps } from '../deps.js';
import { dpopChallenge, OAuthError, PresetError, tokenRejected } from '../errors.js';
import { type AccessClaims, type Grant, loadGrant, verifyAccessJwt } from '../services/access-tokens.js';
import { DPOP_ALGORITHMS } from '../services/dpop.js';
import { requestUrl } from './dpop.js';

export interface Access {
  claims: AccessClaims;
  grant: Grant;
  /** The scopes this token carries (a refreshed token may carry fewer than were granted). */
  scopes: string[];
}

type Style = 'oauth' | 'data';

function senderRejected(err: OAuthError, style: Style) {
  return style === 'oauth' ? dpopChallenge(err, DPOP_ALGORITHMS) : new PresetError('E4042', err.description, { subcode: err.code });
}

/**
 * RFC 9449 §7: a DPoP-bound token is good only as `Authorization: DPoP` with a proof for this
 * request, signed by the bound key and hashing the token (`ath`); an unbound one only as Bearer.
 */
async function checkSender(deps: AppDeps, req: Request, scheme: 'Bearer' | 'DPoP', token: string, claims: AccessClaims, style: Style): Promise<void> {
  const bound = claims.cnf?.jkt;
  if (!bound) {
    if (scheme === 'DPoP') throw senderRejected(new OAuthError('invalid_token', 'This access token is not DPoP-bound: present it as a Bearer token'), style);
    return;
  }
  if (scheme !== 'DPoP')
    throw senderRejected(new OAuthError('invalid_token', 'This access token is DPoP-bound: present it with Authorization: DPoP and a DPoP proof'), style);
  const proof = req.get('dpop');
  if (proof === undefined) throw senderRejected(new OAuthError('invalid_dpop_proof', 'A DPoP proof is required with a DPoP-bound token'), style);
  let jkt: string;
  try {
    jkt = await deps.dpop.verify(proof, { method: req.method, url: requestUrl(deps, req), accessToken: token, requireNonce: false });
  } catch (err) {
    throw err instanceof OAuthError ? senderRejected(err, style) : err;
  }
  if (jkt !== bound) throw senderRejected(new OAuthError('invalid_dpop_proof', 'The DPoP proof is signed by another key than the token is bound to'), style);
}

/**
 * RFC 6750 / RFC 9449: the access token from `Authorization: Bearer …` or `DPoP …`, verified,
 * checked for its sender, counted against its client's rate limit (before the database is asked),
 * and checked for revocation. `style` picks how a refusal reads: RFC 6750 for OAuth endpoints,
 * E4041/E4042 for the data endpoints.
 */
export async function requireAccessToken(deps: AppDeps, req: Request, style: Style = 'oauth'): Promise<Access> {
  const header = req.headers.authorization;
  const scheme = header?.startsWith('Bearer ') ? 'Bearer' : header?.startsWith('DPoP ') ? 'DPoP' : undefined;
  if (!header || !scheme || header.length > 8192) throw tokenRejected('missing', style);
  const token = header.slice(scheme.length + 1).trim();
  const jwt = await verifyAccessJwt(deps.tokens, token);
  if (!jwt.ok) throw tokenRejected(jwt.rejection, style);
  await checkSender(deps, req, scheme, token, jwt.value, style);
  await deps.limits.client(jwt.value.client_id);
  const grant = await loadGrant(deps.tokens, jwt.value);
  if (!grant.ok) throw tokenRejected(grant.rejection, style);
  return { claims: jwt.value, grant: grant.value, scopes: jwt.value.scope.split(' ').filter(Boolean) };
}
