/**
 * The formats signed with the issuer's certified ES256 key, one entry each: what a wallet receives
 * for a configuration of that format. (`ldp_vc` is signed bbs-2023 by the signing threads instead,
 * through the VC API's own path.)
 */
import type { JwtSigningKey } from '../../../keys/issuer-keys.js';
import { type CredentialConfiguration, vctOf } from '../../metadata/configurations.js';
import { issueMdoc } from './mdoc.js';
import { issueSdJwtVc, type SdJwtVcInput } from './sd-jwt-vc.js';

/** What an SD-JWT VC is made of, for any signed format: its configuration in place of the vct, and an expiry always. */
export interface SignedCredentialInput extends Omit<SdJwtVcInput, 'vct' | 'expiresAt'> {
  configuration: CredentialConfiguration;
  expiresAt: Date;
}

export type SignedFormat = 'dc+sd-jwt' | 'mso_mdoc';

export const SIGNED_FORMATS: Record<SignedFormat, (input: SignedCredentialInput, signer: JwtSigningKey) => Promise<string>> = {
  'dc+sd-jwt': (input, signer) => issueSdJwtVc({ ...input, vct: vctOf(input.issuer, input.configuration) }, signer),
  // No status reference in the MSO: the mdoc library writes none; its validity bounds it instead.
  mso_mdoc: (input, signer) =>
    issueMdoc(
      {
        doctype: input.configuration.mdoc!.doctype,
        namespace: input.configuration.mdoc!.namespace,
        claims: input.claims,
        deviceKey: input.holderKey,
        issuedAt: input.issuedAt,
        expiresAt: input.expiresAt,
      },
      signer,
    ),
};
