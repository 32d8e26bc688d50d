// What the production guide's examples (docs/identity-provider.md) share: the base `npm start`
// serves the identity provider on, its sandbox's, and how an example presents a token it holds in
// a shell variable.
export const BASE = 'http://localhost:4000';
export const SANDBOX_BASE = 'http://localhost:4005';
export const bearer = (variable: string) => ({ Authorization: `Bearer $${variable}` });
/** The demo app's redirect URI (`npm start`'s demo relying party). */
export const REDIRECT_URI = 'http://localhost:4003/callback';
/** curl's `-u` for the demo client's credentials, from the guide's $CLIENT_ID and $CLIENT_SECRET. */
export const CLIENT = '$CLIENT_ID:$CLIENT_SECRET';
/** The sandbox guide's organization and developer, and the time its example answers show. */
export const SANDBOX_ORG_ID = '5f0c3a4e-2b1d-4c8e-9a7f-1e2d3c4b5a69';
export const SANDBOX_USER_ID = '0b6f1e2a-7c3d-4e5f-8a9b-1c2d3e4f5a6b';
export const EXAMPLE_NOW = '2026-11-25T10:00:00.000Z';
