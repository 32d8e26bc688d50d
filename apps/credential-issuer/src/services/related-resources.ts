/**
 * VC Data Model 2.0 §5.3, integrity of related resources: each `relatedResource` names a URL and
 * the digest its bytes must have (`digestSRI`, as Subresource Integrity writes it, or
 * `digestMultibase`, a multibase multihash), at most once per URL. Where the resource is one this
 * issuer serves itself (a credential type's metadata), the digest is checked against the exact
 * bytes it serves; anything else is checked for form only, as the issuer fetches nothing.
 */
import { createHash } from 'node:crypto';
import { CREDENTIAL_CONFIGURATIONS, vctOf } from '../wallets/configurations.js';
import { typeMetadata } from '../wallets/metadata.js';
import type { ClaimProblem } from './claim-rules.js';

const SRI = /^(sha256|sha384|sha512)-([A-Za-z0-9+/]+={0,2})$/;
const SRI_LENGTHS: Record<string, number> = { sha256: 32, sha384: 48, sha512: 64 };
/** Multihash codes of the SHA-2 digests, and their lengths. */
const MULTIHASH: Record<number, { algorithm: string; length: number }> = {
  18: { algorithm: 'sha256', length: 32 },
  32: { algorithm: 'sha384', length: 48 },
  19: { algorithm: 'sha512', length: 64 },
};
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(text: string): Buffer | undefined {
  let value = 0n;
  for (const c of text) {
    const digit = BASE58.indexOf(c);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const zeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')]);
}

/** `{algorithm, digest}` of a digestMultibase (base64url `u…` or base58btc `z…` of a SHA-2 multihash), or undefined. */
function multibaseDigest(value: string): { algorithm: string; digest: Buffer } | undefined {
  if (value.length > 200) return undefined;
  const bytes =
    value.startsWith('u') && /^[A-Za-z0-9_-]+$/.test(value.slice(1))
      ? Buffer.from(value.slice(1), 'base64url')
      : value.startsWith('z')
        ? base58(value.slice(1))
        : undefined;
  const code = bytes?.[0];
  const hash = code === undefined ? undefined : MULTIHASH[code];
  if (!bytes || !hash || bytes[1] !== hash.length || bytes.length !== hash.length + 2) return undefined;
  return { algorithm: hash.algorithm, digest: bytes.subarray(2) };
}

const servedBy = new Map<string, Map<string, string>>();

/**
 * The bytes this issuer serves at `url`, for the resources whose bytes it fixes (type metadata,
 * as `res.json` writes it): made once per issuer URL, not on every request that checks them.
 */
export function ownResources(publicUrl: string): (url: string) => string | undefined {
  let served = servedBy.get(publicUrl);
  if (!served) {
    served = new Map(CREDENTIAL_CONFIGURATIONS.map((c) => [vctOf(publicUrl, c), JSON.stringify(typeMetadata(publicUrl, c))]));
    servedBy.set(publicUrl, served);
  }
  return (url) => served.get(url);
}

export function relatedResourceProblems(value: unknown, field: string, own?: (url: string) => string | undefined): ClaimProblem[] {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return [{ field, message: 'must be an object or a non-empty array of objects' }];
  const problems: ClaimProblem[] = [];
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    const at = Array.isArray(value) ? `${field}[${i}]` : field;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push({ field: at, message: 'must be an object with id and digestSRI or digestMultibase' });
      continue;
    }
    const { id, digestSRI, digestMultibase, mediaType } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !URL.canParse(id)) problems.push({ field: `${at}.id`, message: 'is required and must be a URL' });
    else if (seen.has(id)) problems.push({ field: `${at}.id`, message: 'names a resource an earlier entry names: each once' });
    else seen.add(id);
    if (mediaType !== undefined && typeof mediaType !== 'string') problems.push({ field: `${at}.mediaType`, message: 'must be a media type string' });
    if (digestSRI === undefined && digestMultibase === undefined) {
      problems.push({ field: at, message: 'needs digestSRI or digestMultibase: the digest the resource must have' });
      continue;
    }
    const digests: { algorithm: string; digest: Buffer; member: string }[] = [];
    for (const sri of digestSRI === undefined ? [] : String(digestSRI).split(/\s+/)) {
      const match = typeof digestSRI === 'string' ? SRI.exec(sri) : null;
      const digest = match ? Buffer.from(match[2]!, 'base64') : undefined;
      if (!match || digest?.length !== SRI_LENGTHS[match[1]!]) {
        problems.push({ field: `${at}.digestSRI`, message: 'must be a Subresource Integrity value: sha256-, sha384- or sha512- and the base64 digest' });
        break;
      }
      digests.push({ algorithm: match[1]!, digest: digest!, member: 'digestSRI' });
    }
    if (digestMultibase !== undefined) {
      const parsed = typeof digestMultibase === 'string' ? multibaseDigest(digestMultibase) : undefined;
      if (!parsed) problems.push({ field: `${at}.digestMultibase`, message: 'must be a multibase (u or z) SHA-256, SHA-384 or SHA-512 multihash' });
      else digests.push({ ...parsed, member: 'digestMultibase' });
    }
    const bytes = typeof id === 'string' ? own?.(id) : undefined;
    if (bytes === undefined) continue;
    for (const d of digests) {
      if (!createHash(d.algorithm).update(bytes).digest().equals(d.digest))
        problems.push({ field: `${at}.${d.member}`, message: `does not match ${id}, which this issuer serves: its ${d.algorithm} digest differs` });
    }
  }
  return problems;
}
