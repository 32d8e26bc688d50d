/**
 * W3C presentations with Data Integrity proofs (`ldp_vc`; OpenID4VP 1.0 Appendix B.1): one
 * credential of this issuer's bbs-2023 kind (derived, so it discloses only some claims) in a
 * presentation the holder signs with any key (a did:key), its proof's challenge the request's
 * nonce and its domain the client id (or `origin:<origin>` over the DC API). The proofs and what the
 * credential's signed data states (issuer, validity, status) are checked as POST
 * /presentations/verify checks them; this file maps the verdict and the claims to the request.
 */
import type { PresentationCheck } from '@svc/schemas';
import { Refusal, refuse } from '../refusals.js';
import { ownPlace } from '../../status-lists/status-lists.js';
import { checkRequestedClaims } from './claim-paths.js';
import { type FormatVerifier, namedSegments } from './presented.js';

/** A credential's failure, as the check it belongs to (the verdict speaks VC Data Model problem types). */
function checkOf(problem: { title: string; detail: string }): PresentationCheck {
  if (problem.title === 'UNTRUSTED_ISSUER') return 'issuer_trust';
  if (problem.title === 'REVOKED') return 'status';
  if (problem.title === 'RANGE_ERROR') return 'validity';
  if (problem.title === 'MALFORMED_VALUE_ERROR') return 'vp_token';
  return 'issuer_signature';
}

const issuerOf = (credential: Record<string, unknown>) => {
  const issuer = credential.issuer;
  return typeof issuer === 'string' ? issuer : typeof (issuer as { id?: unknown })?.id === 'string' ? (issuer as { id: string }).id : undefined;
};

/** The one Bitstring Status List entry of this issuer a credential of its own carries (signed, as its proof has shown). */
function ownStatusEntry(credential: Record<string, unknown>, issuerUrl: string): { listId: string; index: number } {
  const entries = [credential.credentialStatus].flat().filter((e): e is Record<string, string> => typeof e === 'object' && e !== null);
  const places = entries
    .map((e) => ownPlace(issuerUrl, { statusListCredential: String(e.statusListCredential), statusListIndex: String(e.statusListIndex) }))
    .filter((p) => p !== undefined);
  if (places.length !== 1) return refuse('status', 'This issuer’s credential must carry exactly one status entry of its own lists');
  return places[0]!;
}

export const verifyLdpVc: FormatVerifier = async (presentation, context) => {
  if (typeof presentation !== 'object' || Array.isArray(presentation))
    return refuse('vp_token', 'An ldp_vc presentation is a W3C verifiable presentation (a JSON object)');
  const inside = presentation.verifiableCredential;
  const credentials = Array.isArray(inside) ? inside : inside ? [inside] : [];
  if (credentials.length !== 1 || typeof credentials[0] !== 'object' || credentials[0] === null)
    refuse('vp_token', 'The presentation must hold exactly one credential');
  const credential = credentials[0] as Record<string, unknown>;
  const verdict = await context.verifyDataIntegrity(presentation, { challenge: context.nonce, domain: context.audience });
  const holderProblem = verdict.errors[0];
  if (holderProblem) throw new Refusal('key_binding', `The holder’s proof does not hold (challenge, domain, signature): ${holderProblem.detail}`);
  const credentialProblem = verdict.credentialResults[0]?.errors[0];
  if (credentialProblem) throw new Refusal(checkOf(credentialProblem), `The credential does not hold: ${credentialProblem.detail}`);
  if (!verdict.verified) refuse('issuer_signature', 'The presentation does not verify');
  const issuer = issuerOf(credential);
  if (!issuer) return refuse('vp_token', 'The credential names no issuer');
  if (context.anchors.narrowed && !context.anchors.dids.includes(issuer)) refuse('issuer_trust', `This request trusts other issuers than ${issuer}`);
  const types = Array.isArray(credential.type) ? credential.type.filter((t): t is string => typeof t === 'string') : [];
  const wanted = context.query.meta?.type_values;
  if (wanted && !wanted.some((set) => set.every((t) => types.includes(t)))) refuse('type', `The credential is a ${types.join(', ')}, not a type asked for`);
  const subject = (credential.credentialSubject ?? {}) as Record<string, unknown>;
  const allowed = namedSegments(context.query);
  if (allowed)
    for (const name of Object.keys(subject))
      if (name !== 'id' && !allowed.has(name)) refuse('unrequested_disclosure', `The holder disclosed ${name}, which the request did not ask for`);
  const claims = { type: types, credentialSubject: subject };
  checkRequestedClaims(context.query, claims);
  const validUntil = typeof credential.validUntil === 'string' ? new Date(credential.validUntil) : undefined;
  const vouchedBy = (await context.ownDid(issuer)) ? await context.ownVoucher({ statusList: ownStatusEntry(credential, context.issuerUrl) }) : undefined;
  return {
    format: 'ldp_vc',
    issuer,
    type: types.join(' '),
    claims,
    expiresAt: validUntil && !Number.isNaN(validUntil.getTime()) ? validUntil : undefined,
    ...(vouchedBy ? { vouchedBy } : {}),
  };
};
