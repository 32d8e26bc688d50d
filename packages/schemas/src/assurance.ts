// How a person signed in, as OpenID Connect says it: acr values (weakest first) and RFC 8176 amr.
import { z } from 'zod';

/**
 * The acr values this service issues, weakest first: `pwd` a password; `phr` a passkey (phishing
 * resistant); `phrh` a passkey whose attestation shows a hardware authenticator.
 */
export const ACR_VALUES = ['pwd', 'phr', 'phrh'] as const;
export type Acr = (typeof ACR_VALUES)[number];

export const isAcr = (value: string): value is Acr => (ACR_VALUES as readonly string[]).includes(value);

/** Whether a sign-in of `have` meets a request for `want`: the same, or stronger. */
export const acrMeets = (have: Acr, want: Acr): boolean => ACR_VALUES.indexOf(have) >= ACR_VALUES.indexOf(want);

/** What a sign-in was, as a session keeps it and tokens carry it. */
export interface SignInAssurance {
  acr: Acr;
  /** RFC 8176: `pwd`; or `hwk` (hardware key) or `swk` (software key) with `user` (user verification). */
  amr: string[];
}

/** What each acr's sign-in records as amr (RFC 8176): a password; a passkey, software-held or attested hardware, with user verification. */
export const AMR_OF: Record<Acr, string[]> = { pwd: ['pwd'], phr: ['swk', 'user'], phrh: ['hwk', 'user'] };

/** A sign-in of `acr`, with the amr it records. */
export const signedInAs = (acr: Acr): SignInAssurance => ({ acr, amr: AMR_OF[acr] });

export const PASSWORD_SIGN_IN: SignInAssurance = signedInAs('pwd');

/** A max_age past ten years is a typo, not a policy. */
export const MAX_AGE_LIMIT = 10 * 365 * 86_400;

export const ZAcr = z.enum(ACR_VALUES, { message: `must be one of: ${ACR_VALUES.join(', ')}` });
const ZAuthenticationAge = z
  .number()
  .int('must be a whole number of seconds')
  .min(0, 'must be at least 0')
  .max(MAX_AGE_LIMIT, `must be at most ${MAX_AGE_LIMIT}`);

/**
 * What an application asks of its users' sign-in: `default_acr_values` and `default_max_age` when
 * a request names none (OpenID Connect Registration), and what its tokens need to read presets of
 * high or critical sensitivity (RFC 9470 step-up): `sensitive_data_acr`, `sensitive_data_max_age`.
 */
export const signInPolicySettings = {
  default_acr_values: z.array(ZAcr).max(ACR_VALUES.length, `must list at most ${ACR_VALUES.length} values`),
  default_max_age: ZAuthenticationAge,
  sensitive_data_acr: ZAcr,
  sensitive_data_max_age: ZAuthenticationAge,
};
export const ZSignInPolicy = z.object({
  default_acr_values: signInPolicySettings.default_acr_values.optional(),
  default_max_age: signInPolicySettings.default_max_age.optional(),
  sensitive_data_acr: signInPolicySettings.sensitive_data_acr.optional(),
  sensitive_data_max_age: signInPolicySettings.sensitive_data_max_age.optional(),
});
export type SignInPolicy = z.output<typeof ZSignInPolicy>;

/** As an application's row keeps it. */
export interface StoredSignInPolicy {
  defaultAcrValues: string[];
  defaultMaxAge: number | null;
  sensitiveDataAcr: string | null;
  sensitiveDataMaxAge: number | null;
}

/** The columns a policy sets: only what it names (null clears, for an update). */
export function storedSignInPolicy(p: { [K in keyof SignInPolicy]?: SignInPolicy[K] | null }): Partial<StoredSignInPolicy> {
  return {
    ...(p.default_acr_values !== undefined ? { defaultAcrValues: p.default_acr_values ?? [] } : {}),
    ...(p.default_max_age !== undefined ? { defaultMaxAge: p.default_max_age } : {}),
    ...(p.sensitive_data_acr !== undefined ? { sensitiveDataAcr: p.sensitive_data_acr } : {}),
    ...(p.sensitive_data_max_age !== undefined ? { sensitiveDataMaxAge: p.sensitive_data_max_age } : {}),
  };
}

/** The policy as the API and registration show it: what is set. */
export function signInPolicyView(app: StoredSignInPolicy): SignInPolicy {
  return {
    ...(app.defaultAcrValues.length ? { default_acr_values: app.defaultAcrValues.filter(isAcr) } : {}),
    ...(app.defaultMaxAge !== null ? { default_max_age: app.defaultMaxAge } : {}),
    ...(app.sensitiveDataAcr !== null && isAcr(app.sensitiveDataAcr) ? { sensitive_data_acr: app.sensitiveDataAcr } : {}),
    ...(app.sensitiveDataMaxAge !== null ? { sensitive_data_max_age: app.sensitiveDataMaxAge } : {}),
  };
}
