import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), signed by the identity provider
 * and verified by the services that receive its events. A secret is `whsec_` and the base64 of its
 * key's bytes; a signature is `v1,` and the base64 HMAC-SHA256, keyed with those bytes, of
 * `<webhook-id>.<webhook-timestamp>.<body>`. Any of the specification's libraries verifies what
 * `sign` makes, and `verify` accepts what they make (test/signatures.contract.test.ts).
 */
const PREFIX = 'whsec_';

/** What is signed: the `webhook-id`, the `webhook-timestamp` (seconds) and the body's exact bytes. */
export interface SignedMessage {
  id: string;
  timestamp: number;
  body: string | Uint8Array;
}

/** The three headers of a delivery, as received (any may be missing). */
export interface SignatureHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from `now`, either way (the specification's libraries: 300 s). */
  toleranceSeconds?: number;
  now: Date;
}

/** Why a delivery did not verify. */
export type VerifyFailure = 'missing_headers' | 'timestamp_out_of_tolerance' | 'no_matching_signature';
export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

export const DEFAULT_TOLERANCE_SECONDS = 300;
/** Signatures looked at in one header: two during a secret's rotation; more is someone's attempt to make this work. */
export const MAX_SIGNATURES = 4;

/** The key of a `whsec_` secret: the bytes its base64 spells (as the specification's libraries, a secret without the prefix is its base64 alone). */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

// The timestamp as it is spelled in the header: a receiver signs over what it was sent.
function digest(key: Buffer, id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** The `webhook-signature` header: one `v1,` signature per secret, space-separated (two during a rotation). */
export function sign(secrets: string | readonly string[], message: SignedMessage): string {
  return [secrets]
    .flat()
    .map((secret) => `v1,${digest(secretKey(secret), message.id, String(message.timestamp), message.body).toString('base64')}`)
    .join(' ');
}

/**
 * Whether a delivery was signed with one of `secrets` (any of them: during a rotation the sender
 * signs with two, a receiver may hold two) over `body` as it arrived, at a `webhook-timestamp`
 * within the tolerance of `now`. Signatures are compared in constant time; ones of another version
 * than `v1` are skipped.
 */
export function verify(secrets: string | readonly string[], headers: SignatureHeaders, body: string | Uint8Array, options: VerifyOptions): VerifyResult {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing_headers' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(options.now.getTime() / 1000 - Number(timestamp)) > tolerance)
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const expected = [secrets].flat().map((secret) => digest(secretKey(secret), id, timestamp, body));
  const presented = signature
    .split(' ')
    .slice(0, MAX_SIGNATURES)
    .flatMap((part) => {
      const [version, value] = part.split(',', 2);
      return version === 'v1' && value ? [Buffer.from(value, 'base64')] : [];
    });
  const matches = presented.some((given) => expected.some((e) => given.length === e.length && timingSafeEqual(given, e)));
  return matches ? { ok: true } : { ok: false, reason: 'no_matching_signature' };
}
