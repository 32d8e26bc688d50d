import { z } from 'zod';

// Signing in with a password: the JSON API's body, the hosted pages' forms, and the session it answers.

export const ZSignInRequest = z.object({ email: z.string().min(3).max(320), password: z.string().min(1).max(1024) });
/** The hosted sign-in form: the same fields, the authorization it continues, and the double-submit token. */
export const ZConsentSignInForm = z.object({
  authorization_id: z.string().max(100),
  email: z.string().max(320),
  password: z.string().max(1024),
  csrf_token: z.string().max(200),
});
/** The account page's sign-in form (/account/sign-in): the same fields, without an authorization to continue. */
export const ZAccountSignInForm = z.object({ email: z.string().max(320), password: z.string().max(1024), csrf_token: z.string().max(200) });
export const ZConsentSignOutForm = z.object({
  authorization_id: z.string().max(100),
  csrf_token: z.string().max(200),
});
export const ZSessionResponse = z.object({ session_token: z.string(), expires_in: z.number() });
