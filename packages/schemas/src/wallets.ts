import { z } from 'zod';
import { ZEvmAddress } from './common.js';
import { WALLET_EVENTS } from './credentials.js';

/**
 * OpenID for Verifiable Credential Issuance 1.0 at the credential issuer (docs/credential-issuer.md,
 * "Wallets"): the credentials it offers, the offers integrators make, and what wallets send.
 */
/** Spelled out for the SDK's types; test/wallet-configurations.test.ts holds it to WALLET_CREDENTIAL_TYPES. */
export const CREDENTIAL_CONFIGURATION_IDS = [
  'verified_human_sd_jwt',
  'verified_human_ldp_vc',
  'verified_human_mdoc',
  'age_over_sd_jwt',
  'age_over_ldp_vc',
  'age_over_mdoc',
  'kyc_sd_jwt',
  'kyc_ldp_vc',
] as const;
export type CredentialConfigurationId = (typeof CREDENTIAL_CONFIGURATION_IDS)[number];
export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export const ZCreateCredentialOfferRequest = z.strictObject({
  credential_configuration_id: z.enum(CREDENTIAL_CONFIGURATION_IDS, { message: `must be one of: ${CREDENTIAL_CONFIGURATION_IDS.join(', ')}` }),
  /** The claims the credential will carry, as the configuration lists them (each disclosable on its own). */
  claims: z.record(z.string(), z.unknown()),
  /** Whose it is, for `GET /credentials?subject_address=` (never signed into the credential). */
  subject_address: ZEvmAddress.optional(),
  /**
   * Ask the wallet for a 6-digit code, given to the person on another channel than the offer: on
   * unless `false`, so an offer link seen over someone's shoulder is not enough to take it.
   */
  tx_code: z.boolean().default(true),
});

export const ZCredentialOffer = z.object({
  credential_issuer: z.string(),
  credential_configuration_ids: z.array(z.string()),
  grants: z.object({
    [PRE_AUTHORIZED_CODE_GRANT]: z.object({
      'pre-authorized_code': z.string(),
      tx_code: z.object({ input_mode: z.literal('numeric'), length: z.number(), description: z.string() }).optional(),
      authorization_server: z.string().optional(),
    }),
  }),
});

export const ZCreateCredentialOfferResponse = z.object({
  id: z.string(),
  credential_offer: ZCredentialOffer,
  /** Serves `credential_offer` (OpenID4VCI 1.0 §4.1.3) until it is used or expires. */
  credential_offer_uri: z.string(),
  /** What a wallet scans: `openid-credential-offer://?credential_offer_uri=…`. */
  offer_link: z.string(),
  /** The transaction code, shown this once: give it to the person apart from the offer. */
  tx_code: z.string().optional(),
  expires_at: z.string(),
});

export const ZOfferHandleParams = z.object({ handle: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not an offer this issuer made') });

export const ZPreAuthorizedTokenRequest = z.object({
  grant_type: z.string({ message: 'is required' }),
  'pre-authorized_code': z.string().max(200).optional(),
  tx_code: z.string().max(50).optional(),
});

export const ZWalletTokenResponse = z.object({
  access_token: z.string(),
  /** DPoP when the request carried a DPoP proof: the token is bound to its key (RFC 9449 §5). */
  token_type: z.enum(['Bearer', 'DPoP']),
  expires_in: z.number(),
});

export const ZNonceResponse = z.object({ c_nonce: z.string() });

export const ZCredentialRequest = z.object({
  credential_configuration_id: z.string().max(100).optional(),
  credential_identifier: z.string().max(200).optional(),
  /**
   * The keys to bind to, one way: `jwt`, one proof per credential (up to the issuer's batch_size,
   * CREDENTIAL_BATCH_SIZE, at most 100), or `attestation`, one key attestation whose attested keys
   * each get a credential.
   */
  proofs: z
    .strictObject({
      jwt: z.array(z.string().max(16_384)).min(1).max(100).optional(),
      attestation: z.array(z.string().max(16_384)).length(1, 'must hold exactly one key attestation').optional(),
    })
    .refine((p) => (p.jwt === undefined) !== (p.attestation === undefined), { message: 'must hold one proof type: jwt or attestation' })
    .optional(),
  /** Encrypt the response to this key (OpenID4VCI 1.0 §8.2): ECDH-ES on P-256; `alg` here or in the key. */
  credential_response_encryption: z
    .strictObject({
      jwk: z.looseObject({
        kty: z.string(),
        crv: z.string().optional(),
        x: z.string().optional(),
        y: z.string().optional(),
        alg: z.string().optional(),
        kid: z.string().max(200).optional(),
      }),
      enc: z.enum(['A128GCM', 'A256GCM'], { message: 'must be A128GCM or A256GCM' }),
      alg: z.string().optional(),
    })
    .optional(),
  proof: z.unknown().optional(),
});

/** OpenID4VCI 1.0 §11.1: what a wallet says of the credentials of one credential response. */
export const ZNotificationRequest = z.strictObject({
  notification_id: z.string().min(1).max(100),
  event: z.enum(WALLET_EVENTS, { message: `must be one of: ${WALLET_EVENTS.join(', ')}` }),
  /** Human-readable, ASCII (§11.1), for the issuer's logs and support. */
  event_description: z
    .string()
    .max(1000)
    .regex(/^[\x20-\x7e]*$/, 'must be printable ASCII')
    .optional(),
});

/** An SD-JWT VC or an mdoc (base64url of its CBOR IssuerSigned), a string; or a W3C credential with its bbs-2023 proof, an object. */
export const ZCredentialResponse = z.object({
  credentials: z.array(z.object({ credential: z.union([z.string(), z.record(z.string(), z.unknown())]) })),
  /** What the wallet names these credentials by at the notification endpoint. */
  notification_id: z.string().optional(),
});

export type CredentialOfferResponse = z.infer<typeof ZCreateCredentialOfferResponse>;
