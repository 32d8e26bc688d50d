import { errorResponses, type OperationSpec } from '@svc/http';
import {
  ZCreateCredentialOfferRequest,
  ZCreateCredentialOfferResponse,
  ZCredentialOffer,
  ZCredentialRequest,
  ZCredentialResponse,
  ZNotificationRequest,
  ZNonceResponse,
  ZOfferHandleParams,
  ZPreAuthorizedTokenRequest,
  ZStatusListParams,
  ZWalletTokenResponse,
  ZWebhookEventBody,
} from '@svc/schemas';
import { z } from 'zod';

const tooMany = 'Over WALLET_REQUESTS_PER_MINUTE from this address (Retry-After)';
const publicJson = (description: string, schema: z.ZodType) => ({
  200: { description, schema, headers: { 'Cache-Control': 'public, max-age=<seconds>', 'Access-Control-Allow-Origin': '*' } },
});

/** OpenID4VCI 1.0 at the credential issuer: the offers integrators make, what wallets discover and call. */
export const WALLET_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/credential-offers',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'Offer a credential to a person’s wallet (pre-authorized code)',
    description:
      'An SD-JWT VC of one of the issuer’s credential configurations, with the claims this organization vouches for (checked against the configuration: each one it lists, nothing else). Answers the offer, the URI that serves it and the openid-credential-offer:// link a wallet scans (show it as a QR code). One use, 300 s. The answer carries a 6-digit transaction code to give the person apart from the link (five wrong tries spend the offer), unless tx_code is false: then whoever sees the link can take the credential.',
    security: [['apiToken']],
    body: ZCreateCredentialOfferRequest,
    responses: {
      201: { description: 'The offer; the transaction code, if asked for, shown this once', schema: ZCreateCredentialOfferResponse },
      ...errorResponses({
        400: 'Invalid request: an unknown configuration, or claims it does not carry (each field named)',
        401: 'X-API-Token missing or unknown',
        403: 'Disabled, or without credentials:issue',
        429: 'Over the key’s limits (Retry-After)',
      }),
    },
  },
  {
    method: 'get',
    path: '/credential-offers/{handle}',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'The credential offer a wallet fetches by its credential_offer_uri',
    description: 'Public: the URI is the secret. Served until the offer is taken or expires; never cached.',
    params: ZOfferHandleParams,
    responses: {
      200: { description: 'The offer', schema: ZCredentialOffer },
      ...errorResponses({ 400: 'Not an offer handle', 404: 'Unknown, taken or expired' }),
    },
  },
  {
    method: 'get',
    path: '/.well-known/openid-credential-issuer',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'Credential issuer metadata (OpenID4VCI 1.0 §12.2)',
    description:
      'The endpoints, the issuer’s display name and every credential configuration (format dc+sd-jwt, its vct, holder key proofs ES256 or EdDSA, display data in English, German and French).',
    responses: publicJson('The metadata', z.looseObject({ credential_issuer: z.string(), credential_endpoint: z.string(), nonce_endpoint: z.string() })),
  },
  {
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'Authorization server metadata for the pre-authorized code grant (RFC 8414)',
    responses: publicJson('The metadata', z.looseObject({ issuer: z.string(), token_endpoint: z.string() })),
  },
  {
    method: 'get',
    path: '/.well-known/jwt-vc-issuer',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'JWT VC issuer metadata: the keys SD-JWT VCs are signed with',
    description:
      'Every ES256 key the issuer has signed SD-JWT VCs with, retired ones too (a credential stays verifiable after a key rotation; its status says whether it still holds), each with x5c: its latest certificate under the issuer CA. HAIP verifiers use the x5c chain in the credential instead.',
    responses: publicJson('The issuer and its keys', z.object({ issuer: z.string(), jwks: z.object({ keys: z.array(z.looseObject({ kid: z.string() })) }) })),
  },
  {
    method: 'get',
    path: '/credential-types/{type}',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'SD-JWT VC type metadata at the vct URL',
    params: z.object({ type: z.string() }),
    responses: {
      ...publicJson('The type metadata', z.looseObject({ vct: z.string(), claims: z.array(z.unknown()) })),
      ...errorResponses({ 404: 'No such type' }),
    },
  },
  {
    method: 'post',
    path: '/token',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'Trade a pre-authorized code (and transaction code) for an access token',
    description:
      'Form-encoded. Anonymous, or authenticated by a wallet attestation (HAIP 1.0, OAuth 2.0 Attestation-Based Client Authentication: the OAuth-Client-Attestation header, signed by a wallet provider in WALLET_PROVIDERS, and OAuth-Client-Attestation-PoP, signed by the attested instance key for this issuer, fresh, its jti used once); one that is presented is always checked, and with WALLET_ATTESTATION_REQUIRED none at all is refused. Once per offer; other parameters a wallet sends (resource, user_pin) are ignored. With a DPoP header (RFC 9449: typ dpop+jwt, htm POST, htu this URL, a fresh iat and a unique jti) the token is bound to the proof’s key (token_type DPoP) and is then accepted only as Authorization: DPoP with a proof of that key.',
    body: ZPreAuthorizedTokenRequest,
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'An access token for the credential endpoint (300 s)', schema: ZWalletTokenResponse },
      ...errorResponses({
        400: 'invalid_grant (a code unknown, used or expired; a wrong transaction code), invalid_request (a transaction code missing or not asked for), invalid_dpop_proof (the code is not spent), unsupported_grant_type',
        401: 'invalid_client: a wallet attestation that does not hold (its provider, signature or expiry; the PoP’s key, audience, age or a used jti: the description says which), one header without the other, or none where WALLET_ATTESTATION_REQUIRED (the code is not spent)',
        429: tooMany,
      }),
    },
  },
  {
    method: 'post',
    path: '/nonce',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'A fresh c_nonce for the holder’s key proof',
    description: 'No body. Each nonce lives 300 s and is taken by one proof.',
    responses: {
      200: { description: 'The nonce', schema: ZNonceResponse },
      ...errorResponses({ 429: 'Over NONCES_PER_MINUTE from this address (Retry-After)' }),
    },
  },
  {
    method: 'post',
    path: '/credential',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'Issue the offered or approved credential (or a batch of copies), bound to the holder’s keys',
    description:
      'With an offer’s access token (from POST /token), the offer’s credential, named by credential_configuration_id. With an access token from the identity provider (the authorization code flow, when AUTHORIZATION_SERVER_URL is set), a credential the person approved there, named by a credential_identifier of the token response (or its credential_configuration_id), with the claims their verified data holds (introspected at the identity provider). Proofs of type jwt (typ openid4vci-proof+jwt, ES256 or EdDSA (ES256 only for mso_mdoc), the public key as jwk in its header or named by a did:jwk kid, aud this issuer, iat within 300 s, a nonce from POST /nonce): one per credential, up to batch_credential_issuance.batch_size (CREDENTIAL_BATCH_SIZE, 10), each of a key of its own; the copies of a batch each have their own salts, jti and status entry, so none can be linked to another. For a dc+sd-jwt configuration, SD-JWT VCs: every claim a disclosure, with decoys; cnf the holder’s key; status a Token Status List entry; x5c the signing key’s chain under the issuer CA. Or proofs.attestation: one key attestation (OpenID4VCI 1.0 Appendix D: typ key-attestation+jwt, signed by a provider in WALLET_PROVIDERS, its nonce from POST /nonce), one credential per attested key. A jwt proof may carry a key attestation listing its key in its key_attestation header; configurations in KEY_ATTESTATIONS_REQUIRED take attested keys only. For mso_mdoc, mdocs: the base64url of the CBOR IssuerSigned, the device key the proof’s. For an ldp_vc one (one proof only), a W3C credential about the holder’s did:jwk with a bbs-2023 proof and a Bitstring Status List entry (the holder derives what to show). notification_id names the response’s credentials at POST /notification. Listed by GET /credentials as one record (copies: how many) and revoked by POST /credentials/revoke like any credential of the organization: revoking the record or any copy revokes them all.',
    security: [['walletAccessToken']],
    body: ZCredentialRequest,
    bodyTypes: ['application/json', 'application/jwt'],
    responses: {
      200: {
        description:
          'The credential. With credential_response_encryption {jwk (public P-256), enc (A128GCM or A256GCM), alg? (ECDH-ES)}, the same JSON as a JWE to that key (application/jwt). The request itself may be a JWE (application/jwt) to the key in the metadata’s credential_request_encryption.jwks, its plaintext the JSON request.',
        schema: ZCredentialResponse,
        alternatives: [{ contentType: 'application/jwt', schema: z.string() }],
      },
      ...errorResponses({
        400: 'invalid_encryption_parameters (a response key that is not a public P-256 key, an alg other than ECDH-ES, a request JWE this issuer cannot decrypt), invalid_proof (including more proofs than batch_size, two proofs of one key, an EdDSA key for an mdoc, a key attestation that does not hold or does not list the proof’s key, none where one is required), invalid_nonce (get a new one), unknown_credential_configuration (not the offer’s), unknown_credential_identifier (not granted by the token), credential_request_denied (the person’s verified data does not hold what the credential says), invalid_credential_request (already issued on this offer; the body’s shape)',
        401: 'invalid_token: the access token is missing, unknown, expired or revoked, or certificate-bound (WWW-Authenticate: Bearer); invalid_dpop_proof: a DPoP-bound token without the DPoP scheme and a valid proof of its key (htm POST, htu this URL, ath the token’s hash, a unique jti), or an unbound one under the DPoP scheme (WWW-Authenticate: DPoP)',
        429: tooMany,
        503: 'authorization_server_unavailable: the identity provider cannot be reached to introspect its token; for ldp_vc, signing_queue_full (the signing threads are busy, or the offering organization holds its share of them) or signing_timeout (signing ran past its deadline) (Retry-After)',
      }),
    },
  },
  {
    method: 'post',
    path: '/notification',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'A wallet says what became of the credentials of one response (accepted, deleted, failed)',
    description:
      'OpenID4VCI 1.0 §11, with the access token the credentials were received with (as at POST /credential, DPoP-bound ones under the DPoP scheme with a proof for this URL). The event is kept on the credential’s record: GET /credentials shows it as wallet_event. event_description (printable ASCII) is not kept. Nothing else changes: credential_deleted does not revoke.',
    security: [['walletAccessToken']],
    body: ZNotificationRequest,
    responses: {
      204: { description: 'Taken' },
      ...errorResponses({
        400: 'invalid_notification_id: no credentials of this access token have that id; invalid_request: the body’s shape (the field named)',
        401: 'invalid_token: the access token is missing, unknown or expired; invalid_dpop_proof: as at POST /credential',
        429: tooMany,
      }),
    },
  },
  {
    method: 'get',
    path: '/token-status-lists/{id}',
    tag: 'Status lists',
    summary: 'A Token Status List (public), for SD-JWT VCs',
    description:
      'The IETF OAuth Token Status List an SD-JWT VC’s status.status_list.uri names: a JWT (typ statuslist+jwt, ES256, the key in /.well-known/jwt-vc-issuer and its x5c chain under the issuer CA in the header) with status_list {bits: 1, lst}; a set bit is a revoked credential. Cacheable for STATUS_LIST_MAX_AGE_SECONDS.',
    params: ZStatusListParams,
    responses: {
      200: {
        description: 'The signed list',
        schema: z.string(),
        contentType: 'application/statuslist+jwt',
        headers: { ETag: 'The list’s version', 'Cache-Control': 'public, max-age=<seconds>' },
      },
      304: { description: 'Not modified since the ETag given in If-None-Match' },
      ...errorResponses({ 400: 'Not a UUID', 404: 'No such Token Status List' }),
    },
  },
  {
    method: 'post',
    path: '/authorization-server/events',
    tag: 'Wallets (OpenID4VCI)',
    summary: 'The identity provider’s webhook: a wallet’s approval ended, or the data behind its credentials changed',
    description:
      'For the identity provider only, and only where AUTHORIZATION_SERVER_WEBHOOK_SECRET is set (the secret of a webhook endpoint of the credential issuer’s client’s organization, at this URL, asking for wallet_approval.revoked and wallet_approval.data_changed). A Standard Webhooks delivery: webhook-id, webhook-timestamp (within five minutes) and webhook-signature (v1, HMAC-SHA256 of the id, the timestamp and the body as sent) are checked first. Then the credentials issued on that approval for the configurations the event names (all it granted when it was revoked, those whose data changed otherwise) are revoked in their status lists, each with a credential.revoked event to WALLET_ORGANIZATION_ID’s endpoints; a credential being issued on it at that moment is revoked by its own request. Any other event type is acknowledged and ignored. Idempotent: a retried delivery changes nothing.',
    body: ZWebhookEventBody,
    responses: {
      204: { description: 'Taken (acted on, or nothing to do)' },
      ...errorResponses({
        400: 'A wallet_approval event without an authorization id or its configurations (the field named), or a signed body that is not JSON',
        401: 'invalid_signature: a header missing, a timestamp more than five minutes away, or a signature the secret did not make',
        404: 'Not served here: AUTHORIZATION_SERVER_WEBHOOK_SECRET is not set',
      }),
    },
  },
];
