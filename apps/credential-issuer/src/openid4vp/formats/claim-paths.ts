import type { CredentialQuery } from './presented.js';
import { refuse } from '../refusals.js';

type Step = string | number | null;

/** DCQL claims path processing (OpenID4VP 1.0 §7): a key, an array index, or `null` for every element. */
export function readClaimPath(value: unknown, path: readonly Step[]): unknown[] {
  let selected: unknown[] = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of selected) {
      if (step === null) {
        if (Array.isArray(v)) next.push(...v);
      } else if (typeof step === 'number') {
        if (Array.isArray(v) && step < v.length) next.push(v[step]);
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, step)) {
        next.push((v as Record<string, unknown>)[step]);
      }
    }
    selected = next;
  }
  return selected;
}

/** Every claim the query names is there, with one of its `values` when it lists them. */
export function checkRequestedClaims(query: CredentialQuery, claims: Record<string, unknown>): void {
  for (const claim of query.claims ?? []) {
    const found = readClaimPath(claims, claim.path).filter((v) => v !== undefined);
    const where = JSON.stringify(claim.path);
    if (found.length === 0) refuse('claims', `The presentation lacks the claim ${where} the request asked for`);
    if (claim.values && !found.some((v) => claim.values!.some((allowed) => allowed === v)))
      refuse('claims', `The claim ${where} holds none of the values the request accepts`);
  }
}
