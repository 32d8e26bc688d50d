import { z } from 'zod';
import { isUuid, ZIsoDateTime } from './common.js';

// Passkeys (WebAuthn Level 3): the JSON forms browsers give of a new credential and of a signed
// challenge (PublicKeyCredential.toJSON()), and what this service answers about them. The inner
// bytes are checked by the WebAuthn library; here only their shape and size, so that a malformed
// body is a 400 naming the field, never a failure deeper down.

/** Base64url without padding, as WebAuthn's JSON encodings write bytes. */
const base64url = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url without padding');

/** A credential id: at most 1023 bytes (WebAuthn §5.8.3), 1364 characters in base64url. */
export const ZCredentialId = base64url(1364);

const ZCredentialCommon = {
  id: ZCredentialId,
  rawId: ZCredentialId,
  type: z.literal('public-key', { message: 'must be "public-key"' }),
  // Browsers write null where the attachment is not known.
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).nullish(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** `RegistrationResponseJSON`: what navigator.credentials.create() made, as JSON. */
export const ZRegistrationCredential = z.object({
  ...ZCredentialCommon,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32_768),
    authenticatorData: base64url(16_384).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
});

/** `AuthenticationResponseJSON`: what navigator.credentials.get() signed, as JSON. */
export const ZAuthenticationCredential = z.object({
  ...ZCredentialCommon,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(16_384),
    signature: base64url(2048),
    userHandle: base64url(128).optional(),
  }),
});

export const ZPasskeyName = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

export const ZAddPasskeyRequest = z.strictObject({ name: ZPasskeyName.optional(), credential: ZRegistrationCredential });
export const ZRenamePasskeyRequest = z.strictObject({ name: ZPasskeyName });
export const ZPasskeyParams = z.object({ id: z.string().refine(isUuid, 'must be a passkey id (a UUID)') });

/** One of the person's passkeys, as they see it on their account page. */
export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  created_at: ZIsoDateTime,
  last_used_at: ZIsoDateTime.nullable(),
  /** Backup eligible: a passkey that the person's devices keep in sync (WebAuthn's BE flag), not bound to one device. */
  synced: z.boolean(),
  /** Backed up at its last use (WebAuthn's BS flag). */
  backed_up: z.boolean(),
  /** Its attestation chained to a root the operator trusts (PASSKEY_ATTESTATION_ROOTS): sign-ins with it are `phrh`. */
  attested_hardware: z.boolean(),
  transports: z.array(z.string()),
});
export const ZPasskeyList = z.object({ items: z.array(ZPasskey) });

/**
 * The WebAuthn options a browser passes on (`PublicKeyCredentialCreationOptionsJSON`,
 * `PublicKeyCredentialRequestOptionsJSON`): described by their main members, kept whole.
 */
export const ZPasskeyCreationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(z.looseObject({ id: z.string(), type: z.literal('public-key') })).optional(),
  authenticatorSelection: z.looseObject({}).optional(),
  attestation: z.string().optional(),
});
export const ZPasskeyRequestOptions = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  userVerification: z.string().optional(),
  allowCredentials: z.array(z.looseObject({ id: z.string() })).optional(),
});

export const ZPasskeySignInOptions = z.object({ challenge_id: z.string(), options: ZPasskeyRequestOptions });
export const ZPasskeySignInRequest = z.strictObject({ challenge_id: z.string().min(1).max(100), credential: ZAuthenticationCredential });

export type RegistrationCredential = z.infer<typeof ZRegistrationCredential>;
export type AuthenticationCredential = z.infer<typeof ZAuthenticationCredential>;
export type PasskeyView = z.infer<typeof ZPasskey>;
