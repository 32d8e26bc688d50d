import { errorResponses, withExamples, type ApiSpec } from '@svc/http';
import {
  ZBitstringStatusListCredential,
  ZCredentialIdParams,
  ZCredentialList,
  ZCredentialListQuery,
  ZCredentialStatus,
  ZIssueRequest,
  ZIssueResponse,
  ZRevokeCredentialRequest,
  ZRevokeCredentialResponse,
  ZStatusListParams,
  ZDeriveCredentialRequest,
  ZDeriveCredentialResponse,
  ZErrorBody,
  ZVcApiIssueResponse,
  ZVcApiVerificationFailure,
  ZVcApiVerifyCredentialResponse,
  ZVerifyCredentialResponse,
  ZVerifyPresentationRequest,
  ZVerifyPresentationResponse,
  ZVerifyRequest,
} from '@svc/schemas';
import { z } from 'zod';
import { STATEMENT_LIMITS } from './issuance/statement-limits.js';
import { CREDENTIAL_ISSUER_EXAMPLES } from './openapi-examples.js';
import { CERTIFICATE_EXAMPLES, CERTIFICATE_OPERATIONS } from './keys/openapi.js';
import { WALLET_OPERATIONS } from './openid4vci/openapi.js';
import { WALLET_EXAMPLES } from './openid4vci/openapi-examples.js';
import { PRESENTATION_EXAMPLES, PRESENTATION_OPERATIONS } from './openid4vp/openapi.js';

const token = [['apiToken']] as ApiSpec['operations'][number]['security'];
const refused = errorResponses({
  401: 'X-API-Token missing or unknown',
  403: 'Disabled, or without credentials:issue',
  429: 'Over the key’s hourly or per-second burst limit (each held to the platform maximum the operator sets), or its organization’s budget, which all of its keys share (Retry-After; every answer to a known key carries X-RateLimit-Limit, -Remaining, -Reset)',
});

/** Signing and verifying share threads per organization, each job with a deadline (docs/credential-issuer.md, "Signing threads"). */
const SIGNING_UNAVAILABLE =
  'signing_queue_full: the signing threads are busy, in all or with as many of this organization’s jobs as it may hold whatever its number of keys; signing_timeout: the job ran past its deadline and was stopped (Retry-After)';

/** The credential issuer's API contract, as served. */
export const CREDENTIAL_ISSUER_API: ApiSpec = {
  title: 'Credential issuer',
  description:
    'W3C verifiable credentials (VC Data Model 2.0) with a Data Integrity bbs-2023 proof, for a subject address; and SD-JWT VCs for wallets through OpenID for Verifiable Credential Issuance 1.0.',
  operations: withExamples(
    [
      {
        method: 'post',
        path: '/credentials/issue',
        tag: 'Credentials',
        summary: 'Issue a credential',
        description:
          'The spec’s request {subject_address, claims, valid_until?} answers 200 {message, credential}; the W3C VC API request {credential, options?} answers 201 {verifiableCredential}. Told apart by the credential member. Every credential signed is recorded and revocable: credentialStatus is always the issuer’s own (a caller-supplied one is refused), and a credential id already used by the same organization is 409. VC API requests carry a BitstringStatusListEntry (a bit in a public list at /status-lists/{id}) beside the registry entry; options.credentialStatus {type} (or an array) chooses one or both.',
        security: token,
        body: ZIssueRequest,
        responses: {
          200: { description: 'Issued (spec request)', schema: ZIssueResponse },
          201: { description: 'Issued (VC API request)', schema: ZVcApiIssueResponse },
          ...refused,
          ...errorResponses({
            400: `Invalid request: each offending field and why; among them a credential too large to sign, naming the member that holds most of it (at most ${STATEMENT_LIMITS.claims} statements in the claims or one subject, ${STATEMENT_LIMITS.document} in the credential: every value counts, each array element and each nested object and its members)`,
            409: 'This organization already issued a credential with that id',
            503: SIGNING_UNAVAILABLE,
          }),
        },
      },
      {
        method: 'post',
        path: '/credentials/verify',
        tag: 'Credentials',
        summary: 'Verify a credential: proof, structure, validity window, revocation',
        description:
          'The spec’s request {credential} answers 200 {verified, checks, errors} whatever the verdict. The W3C VC API request {verifiableCredential, options?: {checks, expectedProofPurpose, domain, challenge}} answers 200 {verified: true, checks, warnings, errors} when the credential verifies, and 400 verification_failed with the whole verdict (every failing check as VC Data Model problem details) when it does not.',
        security: token,
        body: ZVerifyRequest,
        responses: {
          200: {
            description: 'The verdict (spec request: also when it fails); verified (VC API request)',
            schema: z.union([ZVerifyCredentialResponse, ZVcApiVerifyCredentialResponse]),
          },
          400: {
            description: `Invalid request (among them a credential of more than ${STATEMENT_LIMITS.document} statements, naming the member that holds most), or (VC API request) a credential that did not verify`,
            schema: z.union([ZVcApiVerificationFailure, ZErrorBody]),
          },
          ...refused,
          ...errorResponses({ 503: SIGNING_UNAVAILABLE }),
        },
      },
      {
        method: 'post',
        path: '/presentations/verify',
        tag: 'Credentials',
        summary: 'Verify a presentation: the holder’s proof and every credential inside it (W3C VC API)',
        description:
          'The holder’s proof (eddsa-rdfc-2022 or ecdsa-rdfc-2019, proofPurpose authentication) must carry options.challenge (required) and options.domain (when given); each credential inside is verified (bbs-2023 derived, eddsa-rdfc-2022, ecdsa-rdfc-2019), checked against VC Data Model 2.0’s structure and, when this issuer signed it, against its revocation record. 200 whatever the verdict, as the VC API defines; every failure as problem details.',
        security: token,
        body: ZVerifyPresentationRequest,
        responses: {
          200: { description: 'The verdict', schema: ZVerifyPresentationResponse },
          ...refused,
          ...errorResponses({
            400: `Invalid request; among them a presentation of more than ${STATEMENT_LIMITS.document} statements (the member holding most named)`,
            503: SIGNING_UNAVAILABLE,
          }),
        },
      },
      {
        method: 'post',
        path: '/credentials/derive',
        tag: 'Credentials',
        summary: 'Derive a selectively disclosed credential (W3C VC API, holder)',
        description:
          'From a bbs-2023 base credential, a derived one disclosing the members selectivePointers name plus those the issuer made mandatory; it verifies with /credentials/verify and with any bbs-2023 verifier. Nothing is stored.',
        security: token,
        body: ZDeriveCredentialRequest,
        responses: {
          201: { description: 'Derived', schema: ZDeriveCredentialResponse },
          ...refused,
          ...errorResponses({
            400: `Invalid request (among them a credential of more than ${STATEMENT_LIMITS.document} statements, the member holding most named), or a credential the library cannot derive (the reason)`,
            503: SIGNING_UNAVAILABLE,
          }),
        },
      },
      {
        method: 'post',
        path: '/credentials/revoke',
        tag: 'Credentials',
        summary: 'Revoke one of the caller’s credentials (idempotent)',
        security: token,
        body: ZRevokeCredentialRequest,
        responses: {
          200: { description: 'Revoked', schema: ZRevokeCredentialResponse },
          ...refused,
          ...errorResponses({ 400: 'Not urn:uuid:<uuid>, a UUID, or a URL', 404: 'No such credential of this organization' }),
        },
      },
      {
        method: 'get',
        path: '/credentials',
        tag: 'Credentials',
        summary: 'The caller’s credentials, newest first',
        security: token,
        query: ZCredentialListQuery,
        responses: { 200: { description: 'A page', schema: ZCredentialList }, ...refused, ...errorResponses({ 400: 'Invalid request' }) },
      },
      {
        method: 'get',
        path: '/credentials/{id}/status',
        tag: 'Credentials',
        summary: 'Revocation status of one of the caller’s credentials',
        security: token,
        params: ZCredentialIdParams,
        responses: {
          200: { description: 'The status', schema: ZCredentialStatus },
          ...refused,
          ...errorResponses({ 400: 'Not urn:uuid:<uuid>, a UUID, or a URL', 404: 'No such credential of this organization' }),
        },
      },
      {
        method: 'get',
        path: '/status-lists/{id}',
        tag: 'Status lists',
        summary: 'A Bitstring Status List credential (public)',
        description:
          'The W3C Bitstring Status List the statusListCredential of a credential names: no API token, cacheable (Cache-Control public, max-age STATUS_LIST_MAX_AGE_SECONDS; an ETag that changes with every revocation in the list, so If-None-Match answers 304), signed bbs-2023 by the DID that issued the credentials in it, with a derived proof that discloses everything, so any bbs-2023 verifier checks it as it stands.',
        params: ZStatusListParams,
        responses: {
          200: {
            description: 'The list',
            schema: ZBitstringStatusListCredential,
            contentType: 'application/vc',
            alternatives: [
              { contentType: 'application/ld+json', schema: ZBitstringStatusListCredential },
              { contentType: 'application/json', schema: ZBitstringStatusListCredential },
            ],
            headers: { ETag: 'The list’s version', 'Cache-Control': 'public, max-age=<seconds>' },
          },
          304: { description: 'Not modified since the ETag given in If-None-Match' },
          ...errorResponses({ 400: 'Not a UUID', 404: 'No such list' }),
        },
      },
      ...WALLET_OPERATIONS,
      ...PRESENTATION_OPERATIONS,
      ...CERTIFICATE_OPERATIONS,
    ],
    { ...CREDENTIAL_ISSUER_EXAMPLES, ...WALLET_EXAMPLES, ...PRESENTATION_EXAMPLES, ...CERTIFICATE_EXAMPLES },
  ),
};
