import { z } from 'zod';

/**
 * The credential types a wallet can take (OpenID4VCI), as both services need them: the credential
 * issuer signs them, and the identity provider, as the authorization server of the authorization
 * code flow, shows them on its consent page and fills their claims from the person's presets.
 * Each claim names the preset it comes from there; a claim without one (`kyc_level`) is only ever
 * vouched for by an integrator's offer.
 */
/** The languages every credential type's names and claim labels are given in, as wallets show them. */
export const WALLET_LOCALES = ['en', 'de', 'fr'] as const;
export type WalletLocale = (typeof WALLET_LOCALES)[number];

export interface WalletClaimType {
  name: string;
  /** How a wallet and the consent page label it, per language. */
  labels: Record<WalletLocale, string>;
  /** The preset the identity provider reads it from, when it can. */
  preset?: string;
}

export interface WalletCredentialType {
  /** The last segment of its `vct` URL; `-` becomes `_` in its configuration ids. */
  type: string;
  vcType: string;
  names: Record<WalletLocale, string>;
  description: string;
  claims: WalletClaimType[];
  /** Issued as an ISO mdoc too (`mso_mdoc`): its doctype, and the namespace its claims sit in. */
  mdoc?: { doctype: string; namespace: string };
}

/** The formats a wallet can take a type in. */
export type WalletFormat = 'dc+sd-jwt' | 'ldp_vc' | 'mso_mdoc';

const claim = (name: string, en: string, de: string, fr: string, preset?: string): WalletClaimType => ({
  name,
  labels: { en, de, fr },
  ...(preset ? { preset } : {}),
});

/** The EU age verification attestation's doctype and namespace (an mdoc, as the EU's age verification app reads it). */
export const EU_AGE_VERIFICATION = 'eu.europa.ec.av.1';
/** The verified-human credential as an mdoc: this service's own doctype and namespace. */
export const VERIFIED_HUMAN_DOCTYPE = 'org.svc.verified_human.1';

export const WALLET_CREDENTIAL_TYPES: readonly WalletCredentialType[] = [
  {
    type: 'verified-human',
    vcType: 'VerifiedHumanCredential',
    names: { en: 'Verified human', de: 'Verifizierter Mensch', fr: 'Humain vérifié' },
    description: 'A unique person, verified by palm.',
    mdoc: { doctype: VERIFIED_HUMAN_DOCTYPE, namespace: VERIFIED_HUMAN_DOCTYPE },
    claims: [
      claim('unique_human', 'Unique human', 'Einzigartiger Mensch', 'Humain unique', 'is_human'),
      claim('palm_verified', 'Palm verified', 'Handfläche verifiziert', 'Paume vérifiée', 'palm_verified'),
    ],
  },
  {
    type: 'age-over',
    vcType: 'AgeCredential',
    names: { en: 'Age', de: 'Alter', fr: 'Âge' },
    description: 'Whether the person is over 18 and over 21, never the date of birth.',
    // As an mdoc, the EU age verification attestation: its doctype and namespace are one name.
    mdoc: { doctype: EU_AGE_VERIFICATION, namespace: EU_AGE_VERIFICATION },
    claims: [
      claim('age_over_18', 'Over 18', 'Über 18', 'Plus de 18 ans', 'age_over_18'),
      claim('age_over_21', 'Over 21', 'Über 21', 'Plus de 21 ans', 'age_over_21'),
    ],
  },
  {
    type: 'kyc',
    vcType: 'KycCredential',
    names: { en: 'Identity check (KYC)', de: 'Identitätsprüfung (KYC)', fr: 'Vérification d’identité (KYC)' },
    description: 'The person passed an identity check.',
    claims: [
      claim('kyc_passed', 'Identity checked', 'Identität geprüft', 'Identité vérifiée', 'kyc_passed'),
      claim('kyc_level', 'Level', 'Stufe', 'Niveau'),
      claim('country_of_residence', 'Country of residence', 'Wohnsitzland', 'Pays de résidence', 'country_of_residence'),
    ],
  },
];

/** Each type's configuration id per format it comes in: `<type>_sd_jwt` (dc+sd-jwt), `<type>_ldp_vc` (bbs-2023), `<type>_mdoc` (mso_mdoc). */
export function walletConfigurationIds(t: WalletCredentialType): Partial<Record<WalletFormat, string>> & Record<'dc+sd-jwt' | 'ldp_vc', string> {
  const key = t.type.replaceAll('-', '_');
  return { 'dc+sd-jwt': `${key}_sd_jwt`, ldp_vc: `${key}_ldp_vc`, ...(t.mdoc ? { mso_mdoc: `${key}_mdoc` } : {}) };
}

/** The type behind a configuration id, with its format; undefined for an id nobody issues. */
export function walletConfiguration(id: string): { type: WalletCredentialType; format: WalletFormat } | undefined {
  for (const type of WALLET_CREDENTIAL_TYPES)
    for (const [format, configurationId] of Object.entries(walletConfigurationIds(type)))
      if (configurationId === id) return { type, format: format as WalletFormat };
  return undefined;
}

/** RFC 9396 with OpenID4VCI 1.0 §5.1.1: the one type of authorization details this server takes. */
export const OPENID_CREDENTIAL = 'openid_credential';

/**
 * One requested credential, as an authorization request's `authorization_details` names it
 * (`locations` is the credential issuer, needed only when the authorization server serves several).
 */
export const ZCredentialAuthorizationDetail = z.strictObject({
  type: z.literal(OPENID_CREDENTIAL),
  credential_configuration_id: z.string().max(100),
  locations: z.array(z.string().max(2000)).max(5).optional(),
});

/** As a token response (and an introspection answer) carries it: with the datasets it may fetch (§6.2). */
export const ZGrantedCredentialDetail = ZCredentialAuthorizationDetail.extend({ credential_identifiers: z.array(z.string()) });

export type CredentialAuthorizationDetail = z.infer<typeof ZCredentialAuthorizationDetail>;
export type GrantedCredentialDetail = z.infer<typeof ZGrantedCredentialDetail>;
