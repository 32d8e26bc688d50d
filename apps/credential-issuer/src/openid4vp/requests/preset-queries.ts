/**
 * Which credentials answer which preset (docs/credential-issuer.md, "Which credential answers
 * which preset"): this issuer's own SD-JWT VCs and mdocs, the EU age verification attestation
 * (whoever issued it), the EU PID in both formats, and an ISO mDL. Presets become a DCQL query
 * with one credential query per kind of credential and one required credential set per preset,
 * whose options are the credentials that can answer it.
 */
import { type DcqlQuery, EU_AGE_VERIFICATION, type PresentablePreset, type PresentationFormat, WALLET_CREDENTIAL_TYPES } from '@svc/schemas';
import type { CredentialQuery } from '../formats/presented.js';

type Path = (string | number)[];

/** A kind of credential a wallet may hold, and where each preset sits in it. */
export interface CredentialSource {
  id: string;
  format: PresentationFormat;
  meta: (publicUrl: string) => CredentialQuery['meta'];
  presets: Partial<Record<PresentablePreset, Path>>;
}

const EU_PID_VCT = 'urn:eudi:pid:1';
const EU_PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';
const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
const MDL_NAMESPACE = 'org.iso.18013.5.1';

/** This issuer's own types, from the registry both services share: each claim with a preset, in each signed format. */
const ownSources: CredentialSource[] = WALLET_CREDENTIAL_TYPES.flatMap((type) => {
  const key = type.type.replaceAll('-', '_');
  const withPreset = type.claims.filter((c) => c.preset);
  const sdJwt: CredentialSource = {
    id: `${key}_sd_jwt`,
    format: 'dc+sd-jwt',
    meta: (publicUrl) => ({ vct_values: [`${publicUrl}/credential-types/${type.type}`] }),
    presets: Object.fromEntries(withPreset.map((c) => [c.preset, [c.name]])),
  };
  const ldpVc: CredentialSource = {
    id: `${key}_ldp_vc`,
    format: 'ldp_vc',
    meta: () => ({ type_values: [['VerifiableCredential', type.vcType]] }),
    presets: Object.fromEntries(withPreset.map((c) => [c.preset, ['credentialSubject', c.name]])),
  };
  const mdoc = type.mdoc;
  // The age mdoc is the EU age verification attestation: one query answers with ours or anyone's (below).
  if (!mdoc || mdoc.doctype === EU_AGE_VERIFICATION) return [sdJwt, ldpVc];
  return [
    sdJwt,
    ldpVc,
    {
      id: `${key}_mdoc`,
      format: 'mso_mdoc',
      meta: () => ({ doctype_value: mdoc.doctype }),
      presets: Object.fromEntries(withPreset.map((c) => [c.preset, [mdoc.namespace, c.name]])),
    },
  ];
});

export const CREDENTIAL_SOURCES: readonly CredentialSource[] = [
  ...ownSources,
  {
    id: 'eu_age_verification',
    format: 'mso_mdoc',
    meta: () => ({ doctype_value: EU_AGE_VERIFICATION }),
    presets: { age_over_18: [EU_AGE_VERIFICATION, 'age_over_18'], age_over_21: [EU_AGE_VERIFICATION, 'age_over_21'] },
  },
  {
    id: 'eu_pid_sd_jwt',
    format: 'dc+sd-jwt',
    meta: () => ({ vct_values: [EU_PID_VCT] }),
    presets: { age_over_18: ['age_equals_or_over', '18'], age_over_21: ['age_equals_or_over', '21'], country_of_residence: ['address', 'country'] },
  },
  {
    id: 'eu_pid_mdoc',
    format: 'mso_mdoc',
    meta: () => ({ doctype_value: EU_PID_DOCTYPE }),
    presets: {
      age_over_18: [EU_PID_DOCTYPE, 'age_over_18'],
      age_over_21: [EU_PID_DOCTYPE, 'age_over_21'],
      country_of_residence: [EU_PID_DOCTYPE, 'resident_country'],
    },
  },
  {
    id: 'mdl',
    format: 'mso_mdoc',
    meta: () => ({ doctype_value: MDL_DOCTYPE }),
    presets: { age_over_18: [MDL_NAMESPACE, 'age_over_18'], age_over_21: [MDL_NAMESPACE, 'age_over_21'] },
  },
];

/**
 * The DCQL query for presets: each credential that answers at least one of them asks for the
 * claims of all it answers; each preset is a required set of those options. Undefined when no
 * credential of the allowed formats answers one of them (named).
 */
export function presetQuery(
  presets: readonly PresentablePreset[],
  formats: readonly PresentationFormat[],
  publicUrl: string,
): { query: DcqlQuery } | { unanswerable: PresentablePreset } {
  const sources = CREDENTIAL_SOURCES.filter((s) => formats.includes(s.format) && presets.some((p) => s.presets[p]));
  for (const preset of presets) if (!sources.some((s) => s.presets[preset])) return { unanswerable: preset };
  return {
    query: {
      credentials: sources.map((s) => ({
        id: s.id,
        format: s.format,
        meta: s.meta(publicUrl),
        claims: presets.filter((p) => s.presets[p]).map((p) => ({ id: p, path: s.presets[p]! })),
      })),
      credential_sets: presets.map((p) => ({ options: sources.filter((s) => s.presets[p]).map((s) => [s.id]), required: true })),
    },
  };
}

/** Where a preset sits in the credential that answered a query, if that credential answers it. */
export const presetPath = (sourceId: string, preset: PresentablePreset): Path | undefined => CREDENTIAL_SOURCES.find((s) => s.id === sourceId)?.presets[preset];
