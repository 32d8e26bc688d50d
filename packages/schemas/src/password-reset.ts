import { z } from 'zod';
import { ZNewPassword } from './developer.js';

// A forgotten password, reset by a single-use link mailed to the account's address
// (POST /auth/password-reset, then POST /auth/password-reset/confirm or the hosted page).

const email = z.string().trim().toLowerCase().max(320).email('must be an email address');
/** A reset link's token: long enough for any token we make, short enough to refuse junk before any lookup. */
const token = z.string().min(1).max(200);

export const ZPasswordResetRequest = z.strictObject({ email });
/** The same answer whether or not the address has an account: it never says which. */
export const ZPasswordResetAccepted = z.object({
  status: z.literal('requested'),
  /** Seconds a mailed link stays valid. */
  expires_in: z.number().int(),
});
export const ZPasswordResetConfirmRequest = z.strictObject({
  token,
  password: ZNewPassword,
  /** End every session of the account but the one this request presents, if any (default true); passkeys are kept either way. */
  sign_out_everywhere: z.boolean().default(true),
});
export const ZPasswordResetConfirmed = z.object({
  status: z.literal('password_changed'),
  /** How many of the account's sessions were ended. */
  sessions_ended: z.number().int(),
});

/** `back`: where the request form's "Back to sign-in" leads: the console, or the authorization whose sign-in page linked here. */
const back = z
  .union([z.literal('console'), z.string().uuid()])
  .optional()
  .catch(undefined);
const lang = z.string().max(35).optional();

export const ZPasswordResetPageQuery = z.object({ lang, back });
/** The hosted request form: the address, and the login-CSRF cookie's token. */
export const ZPasswordResetRequestForm = z.object({ email: z.string().max(320), csrf_token: z.string().max(200), lang, back });
/** The page a mailed link opens: its token (checked by the page, not here, so a bad one is a page, not a 400). */
export const ZPasswordResetLinkQuery = z.object({ token: z.string().max(200).default(''), lang });
/** The hosted reset form: the link's token, the new password twice, whether to end the other sessions. */
export const ZPasswordResetForm = z.object({
  token: z.string().max(200),
  password: z.string().max(1024),
  password_again: z.string().max(1024),
  /** A checkbox: present (any value) when ticked. */
  sign_out_everywhere: z.string().max(10).optional(),
  csrf_token: z.string().max(200),
  lang,
});

export type PasswordResetConfirmed = z.infer<typeof ZPasswordResetConfirmed>;
