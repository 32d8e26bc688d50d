/**
 * VC Data Model 2.0 §5.3, integrity of related resources: each `relatedResource` names a URL and
 * the digest its bytes must have (`digestSRI`, as Subresource Integrity writes it, or
 * `digestMultibase`, a multibase-encoded digest), at most once per URL. Where the resource is one
 * this issuer serves itself (a credential type's metadata, handed in as `own`), the digest is checked
 * against the exact bytes it serves; anything else is checked for form only, as the issuer fetches
 * nothing.
 */
import { createHash } from 'node:crypto';
import type { ClaimProblem } from './claim-rules.js';

const SRI = /^(sha256|sha384|sha512)-([A-Za-z0-9+/]+={0,2})$/;
const SRI_LENGTHS: Record<string, number> = { sha256: 32, sha384: 48, sha512: 64 };
/** Multihash codes of the SHA-2 and SHA-3 digests, and their lengths. */
const MULTIHASH: Record<number, { algorithm: string; length: number }> = {
  18: { algorithm: 'sha256', length: 32 },
  32: { algorithm: 'sha384', length: 48 },
  19: { algorithm: 'sha512', length: 64 },
  22: { algorithm: 'sha3-256', length: 32 },
  21: { algorithm: 'sha3-384', length: 48 },
  20: { algorithm: 'sha3-512', length: 64 },
};
/**
 * A digest without a multihash header names no algorithm: VC DM 2.0's examples (and the W3C
 * suite) write a bare SHA-256 digest, so a bare one is read as the SHA-2 digest of its length.
 */
const BARE: Record<number, string> = { 32: 'sha256', 48: 'sha384', 64: 'sha512' };
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

/**
 * `{algorithm, digest}` of one digestMultibase value (base64url `u…` or base58btc `z…`, the
 * multibase encodings Controlled Identifiers 1.0 requires): a SHA-2 or SHA-3 multihash, or a bare
 * SHA-2 digest; otherwise why not.
 */
function multibaseDigest(value: unknown): { algorithm: string; digest: Buffer } | { problem: string } {
  const form = 'must be multibase (u base64url or z base58btc) of a digest: a SHA-2 or SHA-3 multihash, or a bare SHA-2 digest';
  if (typeof value !== 'string' || value.length > 200) return { problem: form };
  const bytes =
    value.startsWith('u') && /^[A-Za-z0-9_-]+$/.test(value.slice(1))
      ? Buffer.from(value.slice(1), 'base64url')
      : value.startsWith('z')
        ? base58(value.slice(1))
        : undefined;
  if (!bytes) return { problem: form };
  const hash = MULTIHASH[bytes[0]!];
  if (hash && bytes[1] === hash.length && bytes.length === hash.length + 2) return { algorithm: hash.algorithm, digest: bytes.subarray(2) };
  const bare = BARE[bytes.length];
  if (bare) return { algorithm: bare, digest: bytes };
  return { problem: `${form} (a bare digest is 32, 48 or 64 bytes; this is ${bytes.length})` };
}

/**
 * Digests of resources this issuer does not serve but whose bytes are fixed and published: VC DM
 * 2.0 §B.1 gives the SHA-256 digest of its base context as W3C serves it (the bundled copy's bytes
 * differ in whitespace, so its digests are pinned here, not computed), and the W3C suite names its
 * SHA-384. A digest of these in another algorithm is checked for form only.
 */
const PUBLISHED: Record<string, Record<string, string>> = {
  'https://www.w3.org/ns/credentials/v2': {
    sha256: '24a18c90e9856d526111f29376e302d970b2bd10182e33959995b0207d7043b9',
    sha384: '35239c36999d2155312091af194a1edb61634d6ad789a5e5b19f2aebdd762dd9d1dcaada40eda7ef921c6b8c0ae107a0',
  },
};

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
    // One or more digests: a string, or a list of them (Data Integrity §2.6).
    const multibases = digestMultibase === undefined ? [] : Array.isArray(digestMultibase) ? digestMultibase : [digestMultibase];
    if (Array.isArray(digestMultibase) && multibases.length === 0)
      problems.push({ field: `${at}.digestMultibase`, message: 'must be a digest or a non-empty list of them' });
    for (const [j, one] of multibases.entries()) {
      const parsed = multibaseDigest(one);
      const member = Array.isArray(digestMultibase) ? `digestMultibase[${j}]` : 'digestMultibase';
      if ('problem' in parsed) problems.push({ field: `${at}.${member}`, message: parsed.problem });
      else digests.push({ ...parsed, member });
    }
    if (typeof id !== 'string') continue;
    const bytes = own?.(id);
    const published = PUBLISHED[id];
    for (const d of digests) {
      if (bytes !== undefined && !createHash(d.algorithm).update(bytes).digest().equals(d.digest))
        problems.push({ field: `${at}.${d.member}`, message: `does not match ${id}, which this issuer serves: its ${d.algorithm} digest differs` });
      const known = published?.[d.algorithm];
      if (known !== undefined && !Buffer.from(known, 'hex').equals(d.digest))
        problems.push({ field: `${at}.${d.member}`, message: `does not match ${id}: its published ${d.algorithm} digest differs` });
    }
  }
  return problems;
}
