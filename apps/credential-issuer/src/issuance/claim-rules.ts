import { contextTerms } from '../vc/document-loader.js';
import { STATEMENT_LIMITS, statementProblems } from './statement-limits.js';

// What a caller may put in `claims`, so that what the issuer signs is exactly what was sent:
// - names (only where the issuer itself maps claim names into a credential, the spec's shape):
//   letters, digits and underscores, starting with a letter (no JSON-LD keywords, no IRIs), and
//   no name the credentials v2 context defines (id, type, name, exp, kid, sub, …), which JSON-LD
//   would retype instead of signing as given. A caller's own credential (the VC API shape) uses
//   the names its contexts define, as VC DM 2.0 intends;
// - no null anywhere: JSON-LD drops nulls, so they would go unsigned;
// - arrays are signed as sets: duplicates would collapse, so they are refused.
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const RESERVED = contextTerms();
export const CLAIM_LIMITS = { depth: 8, members: 500, stringLength: 4096, statements: STATEMENT_LIMITS.claims };

export interface ClaimProblem {
  field: string;
  message: string;
}

export function claimProblems(claims: unknown, prefix = 'claims', options: { names: boolean } = { names: true }): ClaimProblem[] {
  const problems: ClaimProblem[] = [];
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    return [{ field: prefix, message: 'must be a JSON object of claim names to values' }];
  }
  let members = 0;
  const visit = (value: unknown, at: string, depth: number): void => {
    if (depth > CLAIM_LIMITS.depth) return void problems.push({ field: at, message: `nests deeper than ${CLAIM_LIMITS.depth} levels` });
    if (value === null) return void problems.push({ field: at, message: 'is null: JSON-LD drops nulls, so they cannot be signed; omit the member' });
    if (typeof value === 'string') {
      if (value.length > CLAIM_LIMITS.stringLength) problems.push({ field: at, message: `is longer than ${CLAIM_LIMITS.stringLength} characters` });
      return;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) problems.push({ field: at, message: 'must be a finite number' });
      return;
    }
    if (typeof value === 'boolean') return;
    if (Array.isArray(value)) {
      const seen = new Set<string>();
      value.forEach((item, i) => {
        const key = JSON.stringify(item);
        if (seen.has(key)) problems.push({ field: `${at}[${i}]`, message: 'repeats an earlier element: arrays are signed as sets' });
        seen.add(key);
        visit(item, `${at}[${i}]`, depth + 1);
      });
      return;
    }
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
      if (++members > CLAIM_LIMITS.members) return void problems.push({ field: prefix, message: `has more than ${CLAIM_LIMITS.members} members in all` });
      const field = `${at}.${name}`;
      if (!options.names) visit(child, field, depth + 1);
      else if (!NAME.test(name)) problems.push({ field, message: 'is not a claim name: use letters, digits and _, starting with a letter (at most 64)' });
      else if (RESERVED.has(name)) problems.push({ field, message: `"${name}" is reserved by the credentials v2 context and would not be signed as given` });
      else visit(child, field, depth + 1);
    }
  };
  // Array elements are not members: counted as statements, each signed as a BBS message.
  const tooMany = statementProblems(claims, prefix, CLAIM_LIMITS.statements, 'the claims of one credential');
  if (tooMany.length) return tooMany;
  visit(claims, prefix, 0);
  return problems.slice(0, 20);
}
