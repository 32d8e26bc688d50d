// A bbs-2023 proof signs each statement of a credential's RDF as a BBS message: signing, deriving
// and verifying cost grows with their number (several milliseconds each, more for a thread that
// meets them first), so the number a job may carry is bounded before it is queued. A statement is
// counted for every value: a member's value, each element of an array, each nested object (and
// each of its values), so one array of thousands of short strings counts as thousands.
import { ValidationError } from '@svc/http';

export const STATEMENT_LIMITS = {
  /** In a credential's claims (the spec's `claims`, or one subject of a VC API credential). */
  claims: 500,
  /** In a whole credential or presentation: the claims, the issuer's members and room for a proof or two. */
  document: 1000,
};

/**
 * The statements `value` makes as the value of a member: one for a JSON value (a string, number,
 * boolean or value object), one for a nested object plus its members', the sum of its elements'
 * for an array. `@context` states nothing. Counted without recursion (a request can nest deeply)
 * and only until `stopAt` is passed.
 */
export function countStatements(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length && count <= stopAt) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    count++;
    if (item !== null && typeof item === 'object' && !Object.hasOwn(item, '@value')) {
      for (const [name, child] of Object.entries(item)) if (name !== '@context') stack.push(child);
    }
  }
  return count;
}

/**
 * The problem, if `container` (an object named `field` in the request) makes more than `limit`
 * statements in its members: it names the member holding most of them, the count and the limit.
 */
export function statementProblems(container: unknown, field: string, limit: number, what: string): { field: string; message: string }[] {
  if (container === null || typeof container !== 'object' || Array.isArray(container)) return [];
  const members = Object.entries(container).filter(([name]) => name !== '@context');
  let total = 0;
  let largest: { name: string; count: number } | undefined;
  for (const [name, value] of members) {
    const count = countStatements(value, limit + 1);
    total += count;
    if (!largest || count > largest.count) largest = { name, count };
    if (total > limit) break;
  }
  if (total <= limit || !largest) return [];
  const share = largest.count > limit ? `more than ${limit}` : `${largest.count} of the more than ${limit}`;
  return [
    {
      field: `${field}.${largest.name}`,
      message: `holds ${share} statements in ${field}, which may hold at most ${limit} (${what}; every value counts as one: each array element, each nested object and each of its members)`,
    },
  ];
}

/** A whole credential or presentation is bounded in statements before it is queued: a 400 naming the field, or nothing. */
export function withinDocumentLimit(document: unknown, field: string): void {
  const problems = statementProblems(document, field, STATEMENT_LIMITS.document, 'one credential or presentation');
  if (problems.length) throw new ValidationError(problems);
}
