import type { OperationExample } from '@svc/http';
import { bearer } from '../example-values.js';

// A passkey is made and used by a browser (docs/identity-provider.md, "Passkeys"): what curl can
// show is the options a browser is handed, the (empty) list of the demo user's passkeys, and the
// answers to requests no authenticator signed.

// base64url of {"type":"webauthn.create","challenge":"bm90LWhhbmRlZC1vdXQ","origin":"http://localhost:4000"}: a challenge never handed out.
const UNSIGNED_CLIENT_DATA = 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiYm05MExXaGhibVJsWkMxdmRYUSIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NDAwMCJ9';
const UNKNOWN_PASSKEY = '0b7c52e4-3f0a-4d52-9a43-55a0c2d8e6f1';

export const PASSKEY_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /v2/me/passkeys/registration-options': [
    {
      summary: 'the options a browser creates a passkey of the signed-in person with',
      headers: bearer('SESSION_TOKEN'),
      status: 200,
      response: {
        challenge: 'x4fOq3v0p8m1Yp0mS0yq3q0vH5D7Ck5kqFQq5w2m0dA',
        rp: { name: 'localhost:4000', id: 'localhost' },
        user: { id: 'Vb8yIY2mN0yXQe4y1r3Wk2m6c0o0u1Zr5cX9fQk7x2Q', name: 'alice@demo.example', displayName: 'alice@demo.example' },
        pubKeyCredParams: [
          { alg: -7, type: 'public-key' },
          { alg: -8, type: 'public-key' },
          { alg: -257, type: 'public-key' },
        ],
        timeout: 300000,
        attestation: 'none',
        excludeCredentials: [],
        authenticatorSelection: { residentKey: 'required', userVerification: 'required', requireResidentKey: true },
        extensions: { credProps: true },
        hints: [],
      },
    },
  ],
  'POST /v2/me/passkeys': [
    {
      summary: 'a credential that answers no challenge of this person’s (the browser makes real ones)',
      headers: bearer('SESSION_TOKEN'),
      body: {
        name: 'Laptop',
        credential: {
          id: 'AQIDBAUGBwgJCgsMDQ4PEA',
          rawId: 'AQIDBAUGBwgJCgsMDQ4PEA',
          type: 'public-key',
          clientExtensionResults: {},
          response: { clientDataJSON: UNSIGNED_CLIENT_DATA, attestationObject: 'o2NmbXRkbm9uZQ' },
        },
      },
      status: 400,
      response: { error: 'invalid_challenge', error_description: 'This passkey challenge is unknown, used or expired: ask for new options and try again' },
    },
  ],
  'GET /v2/me/passkeys': [
    {
      summary: 'the signed-in person’s passkeys (the demo user has none yet)',
      headers: bearer('SESSION_TOKEN'),
      status: 200,
      response: { items: [] },
    },
  ],
  'PATCH /v2/me/passkeys/{id}': [
    {
      summary: 'rename a passkey that is not one of yours',
      params: { id: UNKNOWN_PASSKEY },
      headers: bearer('SESSION_TOKEN'),
      body: { name: 'Work laptop' },
      status: 404,
      response: { error: 'passkey_not_found', error_description: 'No such passkey of yours' },
    },
  ],
  'DELETE /v2/me/passkeys/{id}': [
    {
      summary: 'delete a passkey that is not one of yours',
      params: { id: UNKNOWN_PASSKEY },
      headers: bearer('SESSION_TOKEN'),
      status: 404,
      response: { error: 'passkey_not_found', error_description: 'No such passkey of yours' },
    },
  ],
  'POST /auth/passkey/options': [
    {
      summary: 'a challenge to sign in with a passkey',
      status: 200,
      response: {
        challenge_id: 'pkc_7Gm0yQ2kLrV5tXn8pA3cD6fH9jK1mN4qS7uW0zB2',
        options: { rpId: 'localhost', challenge: 'hWq3v7Xp0Fz5Q0l2kYy0b3N7r1Jc8m5uG4tA2e6sD9k', timeout: 300000, userVerification: 'required' },
      },
    },
  ],
  'POST /auth/passkey': [
    {
      summary: 'an answer to a challenge that was never handed out',
      body: {
        challenge_id: 'pkc_never-handed-out',
        credential: {
          id: 'AQIDBAUGBwgJCgsMDQ4PEA',
          rawId: 'AQIDBAUGBwgJCgsMDQ4PEA',
          type: 'public-key',
          clientExtensionResults: {},
          response: { clientDataJSON: UNSIGNED_CLIENT_DATA, authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ', signature: 'MEUCIQ' },
        },
      },
      status: 400,
      response: { error: 'invalid_challenge', error_description: 'This passkey challenge is unknown, used or expired: ask for new options and try again' },
    },
  ],
  'GET /assets/passkeys.js': [
    {
      summary: 'the script of the pages that offer passkeys',
      status: 200,
      response: "// The hosted pages' passkey script, served at /assets/passkeys.js: the only script any page runs.\n…\n",
    },
  ],
};
