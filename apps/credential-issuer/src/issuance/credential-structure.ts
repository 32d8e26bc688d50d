import type { ClaimProblem } from './claim-rules.js';
import { relatedResourceProblems } from './related-resources.js';

// VC Data Model 2.0: each object of these members MUST carry a `type` (§4.10 credentialStatus,
// §4.11 credentialSchema, §5.4 refreshService, §5.5 termsOfUse, §5.6 evidence), and a
// credentialSchema also an `id` (a URL). A proof over a credential that breaks them still
// verifies cryptographically, so they are checked apart: refused on issue, reported on verify.
const REQUIRED: Record<string, readonly ('id' | 'type')[]> = {
  credentialStatus: ['type'],
  credentialSchema: ['id', 'type'],
  refreshService: ['type'],
  termsOfUse: ['type'],
  evidence: ['type'],
};

const isType = (v: unknown) => (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.length > 0 && v.every((t) => typeof t === 'string' && t !== ''));
const isUrl = (v: unknown) => typeof v === 'string' && URL.canParse(v);

/**
 * Where `credential` breaks those rules (and §5.3's for `relatedResource`), one problem per
 * member; `prefix` names the credential's place in the request; `own` gives the bytes of the
 * resources this issuer serves, whose digests are checked.
 */
export function structureProblems(credential: Record<string, unknown>, prefix: string, own?: (url: string) => string | undefined): ClaimProblem[] {
  const problems: ClaimProblem[] = [];
  if (Object.hasOwn(credential, 'relatedResource')) problems.push(...relatedResourceProblems(credential.relatedResource, `${prefix}.relatedResource`, own));
  for (const [member, required] of Object.entries(REQUIRED)) {
    if (!Object.hasOwn(credential, member)) continue;
    const value = credential[member];
    const items = Array.isArray(value) ? value : [value];
    if (items.length === 0) problems.push({ field: `${prefix}.${member}`, message: 'must be an object or a non-empty array of objects' });
    for (const [i, item] of items.entries()) {
      const field = Array.isArray(value) ? `${prefix}.${member}[${i}]` : `${prefix}.${member}`;
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        problems.push({ field, message: 'must be an object' });
        continue;
      }
      const object = item as Record<string, unknown>;
      if (required.includes('id') && !isUrl(object.id)) problems.push({ field: `${field}.id`, message: 'is required and must be a URL' });
      if (!isType(object.type)) problems.push({ field: `${field}.type`, message: 'is required: a type name or a list of them' });
    }
  }
  return problems;
}

const CREDENTIALS_V1 = 'https://www.w3.org/2018/credentials/v1';

/** A VC Data Model 1.1 credential: the v1 context first. */
export const isDataModelV1 = (credential: Record<string, unknown>) => Array.isArray(credential['@context']) && credential['@context'][0] === CREDENTIALS_V1;

/**
 * Where a credential states its validity: VC DM 2.0's validFrom/validUntil, or VC DM 1.1's
 * issuanceDate/expirationDate (bbs-2023 signs both models; the v1 context defines only the latter).
 */
export function validityMembers(credential: Record<string, unknown>) {
  return isDataModelV1(credential) ? ({ from: 'issuanceDate', until: 'expirationDate' } as const) : ({ from: 'validFrom', until: 'validUntil' } as const);
}
