/**
 * The credentials a wallet can receive (OpenID4VCI 1.0 "credential configurations"): each type
 * as an SD-JWT VC (`dc+sd-jwt`, with its `vct`) and as a W3C credential with a bbs-2023 proof
 * (`ldp_vc`), the claims it may carry and how a wallet shows it. Every claim is selectively
 * disclosable in both: a holder shows a verifier `age_over_18` without the rest. The claims are
 * what the integrator that makes the offer vouches for, checked here.
 */
import { z } from 'zod';

interface ClaimDisplay {
  name: string;
  /** How a wallet labels it, per language. */
  labels: Record<'en' | 'de' | 'fr', string>;
}

export interface CredentialConfiguration {
  id: string;
  /** `dc+sd-jwt` (an SD-JWT VC, ES256) or `ldp_vc` (a W3C credential with a bbs-2023 proof). */
  format: 'dc+sd-jwt' | 'ldp_vc';
  /** The W3C credential's type beside VerifiableCredential (ldp_vc). */
  vcType: string;
  /** The last segment of its `vct` URL (`<issuer>/credential-types/<type>`), where its type metadata is served. */
  type: string;
  names: Record<'en' | 'de' | 'fr', string>;
  description: string;
  claims: ClaimDisplay[];
  schema: z.ZodType<Record<string, unknown>>;
}

const claim = (name: string, en: string, de: string, fr: string): ClaimDisplay => ({ name, labels: { en, de, fr } });

const TYPES: readonly Omit<CredentialConfiguration, 'id' | 'format'>[] = [
  {
    vcType: 'VerifiedHumanCredential',
    type: 'verified-human',
    names: { en: 'Verified human', de: 'Verifizierter Mensch', fr: 'Humain vérifié' },
    description: 'A unique person, verified by palm.',
    claims: [
      claim('unique_human', 'Unique human', 'Einzigartiger Mensch', 'Humain unique'),
      claim('palm_verified', 'Palm verified', 'Handfläche verifiziert', 'Paume vérifiée'),
    ],
    schema: z.strictObject({ unique_human: z.literal(true), palm_verified: z.boolean() }),
  },
  {
    vcType: 'AgeCredential',
    type: 'age-over',
    names: { en: 'Age', de: 'Alter', fr: 'Âge' },
    description: 'Whether the person is over 18 and over 21, never the date of birth.',
    claims: [claim('age_over_18', 'Over 18', 'Über 18', 'Plus de 18 ans'), claim('age_over_21', 'Over 21', 'Über 21', 'Plus de 21 ans')],
    schema: z
      .strictObject({ age_over_18: z.boolean(), age_over_21: z.boolean().optional() })
      .refine((c) => !(c.age_over_21 && !c.age_over_18), { message: 'age_over_21 true needs age_over_18 true', path: ['age_over_21'] }),
  },
  {
    vcType: 'KycCredential',
    type: 'kyc',
    names: { en: 'Identity check (KYC)', de: 'Identitätsprüfung (KYC)', fr: 'Vérification d’identité (KYC)' },
    description: 'The person passed an identity check.',
    claims: [
      claim('kyc_passed', 'Identity checked', 'Identität geprüft', 'Identité vérifiée'),
      claim('kyc_level', 'Level', 'Stufe', 'Niveau'),
      claim('country_of_residence', 'Country of residence', 'Wohnsitzland', 'Pays de résidence'),
    ],
    schema: z.strictObject({
      kyc_passed: z.literal(true),
      kyc_level: z.enum(['basic', 'enhanced']).optional(),
      country_of_residence: z
        .string()
        .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE')
        .optional(),
    }),
  },
];

/** Each type in both formats: `<type>_sd_jwt` and `<type>_ldp_vc` (age-over: `age_over_sd_jwt`, `age_over_ldp_vc`). */
export const CREDENTIAL_CONFIGURATIONS: readonly CredentialConfiguration[] = TYPES.flatMap((t) => {
  const key = t.type.replaceAll('-', '_');
  return [
    { ...t, id: `${key}_sd_jwt`, format: 'dc+sd-jwt' as const },
    { ...t, id: `${key}_ldp_vc`, format: 'ldp_vc' as const },
  ];
});

export const configurationById = (id: string) => CREDENTIAL_CONFIGURATIONS.find((c) => c.id === id);

/** A type's `vct`: a URL of this issuer that serves its type metadata (SD-JWT VC §6). */
export const vctOf = (publicUrl: string, c: CredentialConfiguration) => `${publicUrl}/credential-types/${c.type}`;
