import { errorResponses, type ApiSpec } from '@svc/http';
import {
  ZAddPasskeyRequest,
  ZPasskey,
  ZPasskeyCreationOptions,
  ZPasskeyList,
  ZPasskeyParams,
  ZPasskeySignInOptions,
  ZPasskeySignInRequest,
  ZRenamePasskeyRequest,
  ZSessionResponse,
} from '@svc/schemas';
import { z } from 'zod';
import { session } from '../openapi-responses.js';
import { PASSKEY_SCRIPT_PATH } from './page-script.js';

const NOT_FOUND = 'No such passkey of yours (another account’s is not found either)';
const CHANGE =
  'CSRF token missing (with the session cookie), or a sign-in older than 10 minutes (login_required): adding or removing a passkey needs a recent one';
const signedIn = (extra: Record<number, string> = {}) => errorResponses({ 401: 'No session, or an ended or expired one (login_required)', ...extra });
const writes = (extra: Record<number, string> = {}) =>
  signedIn({ 400: 'Invalid request: `details` names each field and why', 403: 'CSRF token missing (with the session cookie)', ...extra });

/** A person's passkeys, and signing in with one (docs/identity-provider.md, "Passkeys"). */
export const PASSKEY_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/v2/me/passkeys/registration-options',
    tag: 'Passkeys',
    summary: 'Options to create a passkey of the signed-in person',
    description:
      'Pass `PublicKeyCredentialCreationOptionsJSON` to the browser (`PublicKeyCredential.parseCreationOptionsFromJSON`, or a library such as @simplewebauthn/browser): a discoverable credential with user verification, for this service’s host name as RP ID, none of the person’s existing passkeys again. Attestation is asked for only where the operator set PASSKEY_ATTESTATION_ROOTS. The challenge is good for one registration within 5 minutes, by this person only.',
    security: session,
    responses: {
      200: { description: 'The creation options', schema: ZPasskeyCreationOptions },
      ...signedIn({ 403: CHANGE, 429: 'More than 120 challenges a minute from this address (Retry-After)' }),
    },
  },
  {
    method: 'get',
    path: '/v2/me/passkeys',
    tag: 'Passkeys',
    summary: 'The signed-in person’s passkeys',
    security: session,
    responses: { 200: { description: 'Every passkey, oldest first', schema: ZPasskeyList }, ...signedIn() },
  },
  {
    method: 'post',
    path: '/v2/me/passkeys',
    tag: 'Passkeys',
    summary: 'Add a passkey: the browser’s new credential (`RegistrationResponseJSON`) for the options above',
    description:
      'Checked: a sign-in of the last 10 minutes, the challenge (one of this person’s, unused, not expired), the origin (this service’s), the RP ID hash, user presence and verification, the signature of the attestation. Without a `name`, the passkey is called “Passkey N”. The owner is mailed.',
    security: session,
    body: ZAddPasskeyRequest,
    responses: {
      201: { description: 'The passkey', schema: ZPasskey },
      ...writes({ 403: CHANGE, 409: 'This credential is registered already (passkey_exists)' }),
    },
  },
  {
    method: 'patch',
    path: '/v2/me/passkeys/{id}',
    tag: 'Passkeys',
    summary: 'Rename a passkey',
    security: session,
    params: ZPasskeyParams,
    body: ZRenamePasskeyRequest,
    responses: { 200: { description: 'The passkey', schema: ZPasskey }, ...writes({ 404: NOT_FOUND }) },
  },
  {
    method: 'delete',
    path: '/v2/me/passkeys/{id}',
    tag: 'Passkeys',
    summary: 'Delete a passkey',
    description:
      'Needs a sign-in of the last 10 minutes; refused while it is the account’s last way to sign in (no password, no other passkey). Every other session the passkey signed in ends (back-channel logout tells their applications); this one stays. The owner is mailed.',
    security: session,
    params: ZPasskeyParams,
    responses: {
      204: { description: 'Deleted' },
      ...writes({ 403: CHANGE, 404: NOT_FOUND, 409: 'The account’s last way to sign in (last_sign_in_method)' }),
    },
  },
  {
    method: 'post',
    path: '/auth/passkey/options',
    tag: 'Sessions',
    summary: 'A challenge to sign in with a passkey',
    description:
      'Pass `options` (`PublicKeyCredentialRequestOptionsJSON`) to the browser, which offers the person their passkeys for this service (no credentials are listed: they are discoverable); send the answer with `challenge_id` to POST /auth/passkey within 5 minutes, once.',
    responses: {
      200: { description: 'The challenge', schema: ZPasskeySignInOptions },
      ...errorResponses({ 429: 'More than 120 challenges a minute from this address (Retry-After)' }),
    },
  },
  {
    method: 'post',
    path: '/auth/passkey',
    tag: 'Sessions',
    summary: 'Sign in with a passkey',
    description:
      'The browser’s answer (`AuthenticationResponseJSON`) to the challenge of POST /auth/passkey/options. Answers as POST /auth/session does, and sets the session cookie; the session’s acr is `phr` (amr `swk`, `user`), or `phrh` (`hwk`, `user`) for a passkey whose attestation chained to one of the operator’s roots. A sign counter that went backwards is refused. Failed attempts slow further ones per source address and per passkey, apart from password sign-ins: a passkey never locks the password out.',
    body: ZPasskeySignInRequest,
    responses: {
      200: { description: 'Signed in', schema: ZSessionResponse },
      ...errorResponses({
        400: 'Invalid request, or a challenge that is unknown, used or expired (invalid_challenge)',
        401: 'A passkey that is not registered, or an answer that does not verify (invalid_credentials)',
        429: 'Too soon after failed sign-ins (Retry-After)',
      }),
    },
  },
  {
    method: 'get',
    path: PASSKEY_SCRIPT_PATH,
    tag: 'Hosted pages',
    summary: 'The script of the pages that offer passkeys',
    responses: { 200: { description: 'JavaScript', schema: z.string(), contentType: 'text/javascript' } },
  },
];
