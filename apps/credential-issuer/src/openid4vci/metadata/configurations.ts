/**
 * The credentials a wallet can receive (OpenID4VCI 1.0 "credential configurations"): each type
 * as an SD-JWT VC (`dc+sd-jwt`, with its `vct`) and as a W3C credential with a bbs-2023 proof
 * (`ldp_vc`), the claims it may carry and how a wallet shows it. Every claim is selectively
 * disclosable in both: a holder shows a verifier `age_over_18` without the rest. The claims are
 * what the integrator that makes the offer vouches for, checked here.
 */
import { WALLET_CREDENTIAL_TYPES, type WalletCredentialType, type WalletFormat, walletConfigurationIds } from '@svc/schemas';
import { z } from 'zod';

export interface CredentialConfiguration extends WalletCredentialType {
  id: string;
  /** `dc+sd-jwt` (an SD-JWT VC, ES256), `ldp_vc` (a W3C credential with a bbs-2023 proof) or `mso_mdoc` (an ISO mdoc, ES256). */
  format: WalletFormat;
  /** What the claims must be, whoever vouches for them (an integrator's offer, or the identity provider). */
  schema: z.ZodType<Record<string, unknown>>;
}

/** The claims each type may carry, checked before anything is signed. */
const SCHEMAS: Record<string, z.ZodType<Record<string, unknown>>> = {
  'verified-human': z.strictObject({ unique_human: z.literal(true), palm_verified: z.boolean() }),
  'age-over': z
    .strictObject({ age_over_18: z.boolean(), age_over_21: z.boolean().optional() })
    .refine((c) => !(c.age_over_21 && !c.age_over_18), { message: 'age_over_21 true needs age_over_18 true', path: ['age_over_21'] }),
  kyc: z.strictObject({
    kyc_passed: z.literal(true),
    kyc_level: z.enum(['basic', 'enhanced']).optional(),
    country_of_residence: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as DE')
      .optional(),
  }),
};

/**
 * Each type in each of its formats: `<type>_sd_jwt`, `<type>_ldp_vc`, and `<type>_mdoc` for the
 * types with a doctype (age-over: `age_over_sd_jwt`, `age_over_ldp_vc`, `age_over_mdoc`).
 */
export const CREDENTIAL_CONFIGURATIONS: readonly CredentialConfiguration[] = WALLET_CREDENTIAL_TYPES.flatMap((t) =>
  Object.entries(walletConfigurationIds(t)).map(([format, id]) => ({ ...t, schema: SCHEMAS[t.type]!, id, format: format as WalletFormat })),
);

export const configurationById = (id: string) => CREDENTIAL_CONFIGURATIONS.find((c) => c.id === id);

/** A type's `vct`: a URL of this issuer that serves its type metadata (SD-JWT VC §6). */
export const vctOf = (publicUrl: string, c: CredentialConfiguration) => `${publicUrl}/credential-types/${c.type}`;
