import type { Request } from 'express';
import type { TokenScheme } from '@svc/http';
import { DPOP_ALGORITHMS } from '@svc/runtime';
import { constantTimeEqual } from '@svc/secrets';
import { dpopChallenge, dpopChallengeHeaders, invalidToken, OAuthError, PresetError } from '../errors.js';
import { clientCertificate } from '../clients/client-certificate.js';
import { clientAlgorithms } from '../clients/fapi.js';
import { requestUrl } from '../dpop/dpop-binding.js';
import type { Confirmation } from '../tokens/grant.js';
import type { AccessTokenGuardDeps } from './deps.js';

/** How a refusal reads: RFC 6750 for OAuth endpoints, E4041/E4042 for the data endpoints. */
export type Style = 'oauth' | 'data';

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
function checkCertificate(deps: AccessTokenGuardDeps, req: Request, scheme: TokenScheme, thumbprint: string, style: Style): void {
  const presented = clientCertificate(deps.config, req);
  if (scheme === 'Bearer' && presented && constantTimeEqual(presented.thumbprint, thumbprint)) return;
  const description = 'This access token is bound to a client certificate: present it as a Bearer token over mutual TLS with that certificate';
  throw style === 'oauth' ? invalidToken(description) : new PresetError('E4042', description, { subcode: 'invalid_token' });
}

/**
 * RFC 9449 §7: a DPoP-bound token is good only as `Authorization: DPoP` with a proof for this
 * request, signed by the bound key and hashing the token (`ath`); an unbound one only as Bearer.
 */
export async function checkSender(
  deps: AccessTokenGuardDeps,
  req: Request,
  { scheme, token, claims }: { scheme: TokenScheme; token: string; claims: { client_id: string; cnf?: Confirmation } },
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
