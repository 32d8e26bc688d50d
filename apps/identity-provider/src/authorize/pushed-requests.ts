import type { Cache } from '@svc/kv';
import type { CredentialAuthorizationDetail } from '@svc/schemas';
import { randomBase62, sha256Hex } from '@svc/secrets';
import type { SignInRequirements } from './sign-in-requirements.js';
import type { AuthorizeRequest } from './authorizations.js';

/**
 * RFC 9126 §2.2: how long a pushed request waits for its authorization request. Short: the client
 * sends the browser on at once, and FAPI 2.0 asks for less than 600 s.
 */
export const PUSHED_REQUEST_TTL_SECONDS = 60;

/** RFC 9126 §2.2: the request_uri form of a pushed request's reference. */
const URN = 'urn:ietf:params:oauth:request_uri:';

/** A pushed authorization request, checked as /oauth/authorize checks one, waiting to be used once. */
export interface PushedRequest {
  clientId: string;
  redirectUri: string;
  request: AuthorizeRequest;
  scopes: string[];
  /** The credentials asked for a wallet (RFC 9396), checked. */
  details?: CredentialAuthorizationDetail[] | undefined;
  /** What it asks of the person's sign-in, checked. */
  requirements?: SignInRequirements | undefined;
}

// The store holds the reference's hash only: a copy of it names no usable request_uri.
const keyOf = (reference: string) => `par:${sha256Hex(reference)}`;

/** Keeps a checked request for PUSHED_REQUEST_TTL_SECONDS under a fresh unguessable reference. */
export async function pushRequest(cache: Cache, pushed: PushedRequest): Promise<{ request_uri: string; expires_in: number }> {
  const reference = randomBase62(43);
  await cache.set(keyOf(reference), JSON.stringify(pushed), PUSHED_REQUEST_TTL_SECONDS);
  return { request_uri: `${URN}${reference}`, expires_in: PUSHED_REQUEST_TTL_SECONDS };
}

/**
 * The pushed request behind `requestUri`, taken: it answers once (of concurrent takers exactly
 * one wins the delete). Another client's reference is not taken, so naming it cannot spend it.
 */
export async function takePushedRequest(cache: Cache, requestUri: string, clientId: string): Promise<PushedRequest | undefined> {
  if (!requestUri.startsWith(URN)) return undefined;
  const key = keyOf(requestUri.slice(URN.length));
  const raw = await cache.get(key);
  if (!raw) return undefined;
  const pushed = JSON.parse(raw) as PushedRequest;
  if (pushed.clientId !== clientId) return undefined;
  return (await cache.delete(key)) === 1 ? pushed : undefined;
}
