/**
 * What wallets and verifiers read before they talk to this issuer: the credential issuer metadata
 * (OpenID4VCI 1.0 §12.2), the metadata of the authorization server that takes pre-authorized
 * codes (RFC 8414; this issuer itself), the JWT VC issuer metadata with the keys SD-JWT VCs are
 * signed with (SD-JWT VC §5), and each credential type's metadata at its `vct` URL (§6).
 */
import { DPOP_ALGORITHMS } from '@svc/runtime';
import { PRE_AUTHORIZED_CODE_GRANT, WALLET_LOCALES, type WalletFormat } from '@svc/schemas';
import { ATTEST_JWT_CLIENT_AUTH, ATTESTATION_ALGORITHMS } from '@svc/wallet-attestations';
import { CREDENTIAL_CONFIGURATIONS, type CredentialConfiguration, vctOf } from './configurations.js';
import { proofAlgorithmsFor } from '../credentials/holder-proofs.js';
import { type KeyAttestationLevels, keyAttestationsRequired } from '../credentials/key-attestations.js';
import { CREDENTIALS_V2, UNDEFINED_TERMS_V2 } from '../../vc/document-loader.js';

export interface IssuerMetadataSettings {
  publicUrl: string;
  displayName: string;
  /** The identity provider, when it runs the authorization code flow for this issuer. */
  authorizationServer: string | undefined;
  batchSize: number;
  /** Whether key attestations are taken (a wallet provider is trusted), and the configurations that need them. */
  keyAttestations: { taken: boolean; requiredFor: readonly string[]; levels: KeyAttestationLevels };
  /** `credential_request_encryption` and `credential_response_encryption`, as the encryption module says them. */
  encryption: object;
}

export function credentialIssuerMetadata({ publicUrl, displayName, authorizationServer, batchSize, keyAttestations, encryption }: IssuerMetadataSettings) {
  return {
    credential_issuer: publicUrl,
    // This issuer takes pre-authorized codes itself; the identity provider, when configured, runs
    // the authorization code flow (OpenID4VCI 1.0 §12.2.4: listed, each offer's grant names its own).
    ...(authorizationServer ? { authorization_servers: [publicUrl, authorizationServer] } : {}),
    credential_endpoint: `${publicUrl}/credential`,
    nonce_endpoint: `${publicUrl}/nonce`,
    notification_endpoint: `${publicUrl}/notification`,
    // Up to batch_size proofs in one request, one credential each, each bound to its own key.
    batch_credential_issuance: { batch_size: batchSize },
    ...encryption,
    display: WALLET_LOCALES.map((locale) => ({ name: displayName, locale })),
    credential_configurations_supported: Object.fromEntries(CREDENTIAL_CONFIGURATIONS.map((c) => [c.id, configurationMetadata(publicUrl, c, keyAttestations)])),
  };
}

/** What each format says of itself in a configuration (OpenID4VCI 1.0 Appendix A), and where a claim sits in it. */
const FORMAT_METADATA: Record<WalletFormat, (publicUrl: string, c: CredentialConfiguration) => { members: object; path: (name: string) => string[] }> = {
  // A.3: the claims at the top of the SD-JWT VC, its type at the vct URL.
  'dc+sd-jwt': (publicUrl, c) => ({
    members: { vct: vctOf(publicUrl, c), cryptographic_binding_methods_supported: ['jwk'], credential_signing_alg_values_supported: ['ES256'] },
    path: (name) => [name],
  }),
  // A.1.2: the claims under credentialSubject.
  ldp_vc: (_publicUrl, c) => ({
    members: {
      credential_definition: { '@context': [CREDENTIALS_V2, UNDEFINED_TERMS_V2], type: ['VerifiableCredential', c.vcType] },
      cryptographic_binding_methods_supported: ['did:jwk'],
      credential_signing_alg_values_supported: ['bbs-2023'],
    },
    path: (name) => ['credentialSubject', name],
  }),
  // A.2: the claims in the doctype's namespace, the device key a COSE key, signed ES256 (COSE -7).
  mso_mdoc: (_publicUrl, c) => ({
    members: { doctype: c.mdoc!.doctype, cryptographic_binding_methods_supported: ['cose_key'], credential_signing_alg_values_supported: [-7] },
    path: (name) => [c.mdoc!.namespace, name],
  }),
};

/** One configuration as OpenID4VCI 1.0 Appendix A describes its format. */
function configurationMetadata(publicUrl: string, c: CredentialConfiguration, keyAttestations: IssuerMetadataSettings['keyAttestations']) {
  const { members, path } = FORMAT_METADATA[c.format](publicUrl, c);
  // Appendix D: key_attestations_required present, with the levels accepted if any, when only attested keys are bound.
  const required = keyAttestations.requiredFor.includes(c.id) ? { key_attestations_required: keyAttestationsRequired(keyAttestations.levels) } : {};
  return {
    format: c.format,
    ...members,
    scope: c.id,
    proof_types_supported: {
      jwt: { proof_signing_alg_values_supported: [...proofAlgorithmsFor(c.format)], ...required },
      ...(keyAttestations.taken ? { attestation: { proof_signing_alg_values_supported: [...ATTESTATION_ALGORITHMS], ...required } } : {}),
    },
    credential_metadata: {
      display: WALLET_LOCALES.map((locale) => ({ name: c.names[locale], locale, description: c.description })),
      claims: c.claims.map((claim) => ({ path: path(claim.name), display: WALLET_LOCALES.map((locale) => ({ name: claim.labels[locale], locale })) })),
    },
  };
}

/** The authorization server wallets trade pre-authorized codes with: this issuer, anonymous access. */
/** `authMethods`: how a wallet authenticates at /token (anonymously, by a wallet attestation, or only by one). */
export function authorizationServerMetadata(publicUrl: string, authMethods: string[]) {
  const attested = authMethods.includes(ATTEST_JWT_CLIENT_AUTH);
  return {
    issuer: publicUrl,
    token_endpoint: `${publicUrl}/token`,
    grant_types_supported: [PRE_AUTHORIZED_CODE_GRANT],
    'pre-authorized_grant_anonymous_access_supported': authMethods.includes('none'),
    // RFC 9449: a DPoP proof at /token binds the token to the wallet's key.
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
    response_types_supported: [],
    token_endpoint_auth_methods_supported: authMethods,
    // Attestation-Based Client Authentication: what the attestation and its PoP may be signed with.
    ...(attested
      ? {
          client_attestation_signing_alg_values_supported: [...ATTESTATION_ALGORITHMS],
          client_attestation_pop_signing_alg_values_supported: [...ATTESTATION_ALGORITHMS],
        }
      : {}),
  };
}

export const jwtVcIssuerMetadata = (publicUrl: string, keys: object[]) => ({ issuer: publicUrl, jwks: { keys } });

/** Type metadata at the `vct` URL: what a wallet shows for the type and each claim; every claim always disclosable. */
export function typeMetadata(publicUrl: string, c: CredentialConfiguration) {
  return {
    vct: vctOf(publicUrl, c),
    name: c.names.en,
    description: c.description,
    display: WALLET_LOCALES.map((locale) => ({ locale, name: c.names[locale], description: c.description })),
    claims: c.claims.map((claim) => ({ path: [claim.name], display: WALLET_LOCALES.map((locale) => ({ locale, label: claim.labels[locale] })), sd: 'always' })),
  };
}

/**
 * The bytes this issuer serves at `url`, for the resources whose bytes it fixes (type metadata,
 * as `res.json` writes it), so a credential's relatedResource digest of one can be checked: made
 * once, when the app's dependencies are built, not on every request that checks them.
 */
export function ownResources(publicUrl: string): (url: string) => string | undefined {
  const served = new Map(CREDENTIAL_CONFIGURATIONS.map((c) => [vctOf(publicUrl, c), JSON.stringify(typeMetadata(publicUrl, c))]));
  return (url) => served.get(url);
}
