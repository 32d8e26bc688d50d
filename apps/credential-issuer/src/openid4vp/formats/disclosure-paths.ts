import type { CredentialQuery } from './presented.js';

type Step = string | number;
interface Disclosed {
  key?: string;
  value: unknown;
  digest: string;
}

/**
 * Where each disclosure of an SD-JWT sits in the credential (RFC 9901 §7.1): an object's `_sd`
 * digests name its disclosed members, an array's `{"...": digest}` elements its disclosed
 * elements, and what a disclosure holds may hold more. A disclosure whose digest appears nowhere
 * is no part of the credential and has no path.
 */
export function disclosurePaths(payload: Record<string, unknown>, disclosures: readonly Disclosed[]): Map<Disclosed, Step[]> {
  const byDigest = new Map(disclosures.map((d) => [d.digest, d]));
  const paths = new Map<Disclosed, Step[]>();
  const walk = (value: unknown, path: Step[], depth: number) => {
    // The library has already refused what is deeper than it reads; this bound is for this walk alone.
    if (depth > 32 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((element, i) => {
        const digest = (element as { '...'?: unknown } | null)?.['...'];
        const disclosed = typeof digest === 'string' ? byDigest.get(digest) : undefined;
        if (disclosed && !paths.has(disclosed)) {
          paths.set(disclosed, [...path, i]);
          walk(disclosed.value, [...path, i], depth + 1);
        } else walk(element, [...path, i], depth + 1);
      });
      return;
    }
    for (const [name, member] of Object.entries(value)) {
      if (name === '_sd' && Array.isArray(member)) {
        for (const digest of member) {
          const disclosed = typeof digest === 'string' ? byDigest.get(digest) : undefined;
          if (!disclosed || disclosed.key === undefined || paths.has(disclosed)) continue;
          paths.set(disclosed, [...path, disclosed.key]);
          walk(disclosed.value, [...path, disclosed.key], depth + 1);
        }
      } else if (name !== '_sd_alg') walk(member, [...path, name], depth + 1);
    }
  };
  walk(payload, [], 0);
  return paths;
}

/** Whether one path leads to or into the other: disclosing `address` to reach `address.country`, or `address.country` when `address` is asked. */
const onTheWay = (disclosed: Step[], asked: (string | number | null)[]) => {
  const shorter = Math.min(disclosed.length, asked.length);
  for (let i = 0; i < shorter; i++) if (asked[i] !== null && asked[i] !== disclosed[i]) return false;
  return true;
};

/** The first disclosure the query did not ask for (when it names claims), as a path to say so. */
export function unrequestedDisclosure(query: CredentialQuery, paths: Map<Disclosed, Step[]>): string | undefined {
  if (!query.claims) return undefined;
  for (const path of paths.values()) if (!query.claims.some((c) => onTheWay(path, c.path))) return path.join('.');
  return undefined;
}
