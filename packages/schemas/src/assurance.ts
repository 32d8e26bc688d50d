// How a person signed in, as OpenID Connect says it: acr values (weakest first) and RFC 8176 amr.

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

export const PASSWORD_SIGN_IN: SignInAssurance = { acr: 'pwd', amr: ['pwd'] };
