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
