import type { Request, RequestHandler } from 'express';
import { dpopChallenge, dpopChallengeHeaders, insufficientScope, invalidToken, OAuthError, PresetError, tokenRejected } from '../errors.js';
import { constantTimeEqual } from '@svc/secrets';
import { clientCertificate } from '../clients/client-certificate.js';
import type { Confirmation } from './grant.js';
import { type ClientClaims, loadGrant, loadTokenClient, verifyAccessJwt, verifyClientJwt } from './access-tokens.js';
import type { AccessClaims, Grant } from './grant.js';
import { DPOP_ALGORITHMS } from '@svc/runtime';
import type { Clients } from '../clients/clients.js';
import { clientAlgorithms } from '../clients/fapi.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { TokenContext } from './token-context.js';
import { type DpopBindingDeps, requestUrl } from '../dpop/dpop-binding.js';

/** What checking a bearer (or DPoP-bound) access token needs. */
export interface BearerDeps extends DpopBindingDeps {
  /** The token's client, for the algorithms its DPoP proofs may use (fewer under FAPI 2.0). */
  clients: Clients;
  tokens: TokenContext;
  limits: RequestLimits;
}

export interface Access {
  claims: AccessClaims;
  grant: Grant;
  /** The scopes this token carries (a refreshed token may carry fewer than were granted). */
  scopes: string[];
}

type Style = 'oauth' | 'data';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The access token a request presents, checked: left by requireAccessToken. */
    access?: Access;
  }
}

function senderRejected(err: OAuthError, style: Style) {
  // Either way the challenge is DPoP's (RFC 9449 §7.1), with DPoP-Nonce when a nonce is wanted.
  return style === 'oauth'
    ? dpopChallenge(err, DPOP_ALGORITHMS)
    : new PresetError('E4042', err.description, { subcode: err.code, headers: dpopChallengeHeaders(err, DPOP_ALGORITHMS) });
}

/**
 * RFC 8705 §3: a certificate-bound token is good only over mutual TLS with that certificate (its
 * SHA-256 thumbprint), presented as Bearer.
 */
function checkCertificate(deps: BearerDeps, req: Request, scheme: 'Bearer' | 'DPoP', thumbprint: string, style: Style): void {
  const presented = clientCertificate(deps.config, req);
  if (scheme === 'Bearer' && presented && constantTimeEqual(presented.thumbprint, thumbprint)) return;
  const description = 'This access token is bound to a client certificate: present it as a Bearer token over mutual TLS with that certificate';
  throw style === 'oauth' ? invalidToken(description) : new PresetError('E4042', description, { subcode: 'invalid_token' });
}

/**
 * RFC 9449 §7: a DPoP-bound token is good only as `Authorization: DPoP` with a proof for this
 * request, signed by the bound key and hashing the token (`ath`); an unbound one only as Bearer.
 */
async function checkSender(
  deps: BearerDeps,
  req: Request,
  { scheme, token, claims }: { scheme: 'Bearer' | 'DPoP'; token: string; claims: { client_id: string; cnf?: Confirmation } },
  style: Style,
): Promise<void> {
  const certificate = claims.cnf?.['x5t#S256'];
  if (certificate) return checkCertificate(deps, req, scheme, certificate, style);
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
    // A FAPI 2.0 client's proofs are PS256, ES256 or EdDSA here too (§5.4.1), not only at the token endpoint.
    const client = await deps.clients.find(claims.client_id);
    const algorithms = client ? clientAlgorithms(client, DPOP_ALGORITHMS) : DPOP_ALGORITHMS;
    jkt = await deps.dpop.verify(proof, { method: req.method, url: requestUrl(deps, req), accessToken: token, requireNonce: false, algorithms });
  } catch (err) {
    throw err instanceof OAuthError ? senderRejected(err, style) : err;
  }
  if (jkt !== bound) throw senderRejected(new OAuthError('invalid_dpop_proof', 'The DPoP proof is signed by another key than the token is bound to'), style);
}

/** The token of `Authorization: Bearer …` or `DPoP …`. */
function presentedToken(req: Request, style: Style): { scheme: 'Bearer' | 'DPoP'; token: string } {
  const header = req.headers.authorization;
  const scheme = header?.startsWith('Bearer ') ? 'Bearer' : header?.startsWith('DPoP ') ? 'DPoP' : undefined;
  if (!header || !scheme || header.length > 8192) throw tokenRejected('missing', style);
  return { scheme, token: header.slice(scheme.length + 1).trim() };
}

/**
 * A client's token for itself (client_credentials) carrying `scope`, checked like a user's access
 * token (signature, sender, the client's budget, revocation) but naming no user: the organization
 * whose client it is.
 */
export async function requireClientToken(deps: BearerDeps, req: Request, scope: string): Promise<{ claims: ClientClaims; organizationId: string }> {
  const { scheme, token } = presentedToken(req, 'oauth');
  const jwt = await verifyClientJwt(deps.tokens, token);
  if (!jwt.ok) throw tokenRejected(jwt.rejection, 'oauth', deps.tokens.environment.elsewhereJwt('This access token', token));
  await checkSender(deps, req, { scheme, token, claims: jwt.value }, 'oauth');
  await deps.limits.client(jwt.value.client_id);
  const client = await loadTokenClient(deps.tokens, jwt.value);
  if (!client.ok) throw tokenRejected(client.rejection, 'oauth');
  if (!jwt.value.scope.split(' ').includes(scope)) throw insufficientScope(scope);
  return { claims: jwt.value, organizationId: client.value.organizationId };
}

/**
 * RFC 6750 / RFC 9449: the access token from `Authorization: Bearer …` or `DPoP …`, verified,
 * checked for its sender, counted against its end user's share of its client's rate limit (before the database is asked),
 * and checked for revocation. `style` picks how a refusal reads: RFC 6750 for OAuth endpoints,
 * E4041/E4042 for the data endpoints.
 */
export async function checkedAccessToken(deps: BearerDeps, req: Request, style: Style = 'oauth'): Promise<Access> {
  const { scheme, token } = presentedToken(req, style);
  const jwt = await verifyAccessJwt(deps.tokens, token);
  if (!jwt.ok) throw tokenRejected(jwt.rejection, style, deps.tokens.environment.elsewhereJwt('This access token', token));
  await checkSender(deps, req, { scheme, token, claims: jwt.value }, style);
  // A public client's reads come from its users' devices: charged to the source's share as well.
  const client = await deps.clients.find(jwt.value.client_id);
  await deps.limits.grant(jwt.value.client_id, jwt.value.sub, client?.isPublic ? (req.ip ?? 'unknown') : undefined);
  const grant = await loadGrant(deps.tokens, jwt.value);
  if (!grant.ok) throw tokenRejected(grant.rejection, style);
  return { claims: jwt.value, grant: grant.value, scopes: jwt.value.scope.split(' ').filter(Boolean) };
}

/** The guard of a route for access tokens (see checkedAccessToken): leaves the token in `res.locals.access`. */
export function requireAccessToken(deps: BearerDeps, style: Style = 'oauth'): RequestHandler {
  return async (req, res, next) => {
    res.locals.access = await checkedAccessToken(deps, req, style);
    next();
  };
}
