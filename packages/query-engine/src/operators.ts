import type { Operator } from '@svc/schemas';
import { RE2JS } from 're2js';
import { QueryError } from './errors.js';
import type { QueryLimits } from './types.js';
import { asDate, compare, strictEquals } from './values.js';

/** A check's test with its expected value already validated (and, for regexes, compiled). */
export type Test = (actual: unknown) => boolean;

// The grammar (which operators exist) is the schemas package's; this file gives each its meaning.
export { OPERATORS, type Operator } from '@svc/schemas';

function requireValue(value: unknown, at: string, hasValue: boolean): void {
  if (!hasValue || value === undefined) throw new QueryError(at, 'is required for this operator');
}

function orderable(value: unknown, at: string): void {
  const ok = (typeof value === 'number' && Number.isFinite(value)) || asDate(value) !== undefined;
  if (!ok) throw new QueryError(at, 'must be a number or an ISO 8601 date for an ordering operator');
}

function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new QueryError(at, 'must be an array for in / notIn');
  if (value.length > 100) throw new QueryError(at, 'must have at most 100 elements');
  return value;
}

/**
 * Builds the test for one check. Type rules (see README): no coercion between types; ordering
 * works on two numbers or two ISO dates; a missing claim fails every operator but isDefined.
 */
export function compileTest(operator: Operator, value: unknown, hasValue: boolean, at: string, limits: QueryLimits): Test {
  const defined =
    (f: Test): Test =>
    (actual) =>
      actual !== undefined && f(actual);
  switch (operator) {
    case '==': {
      requireValue(value, at, hasValue);
      const equals = equalTo(value);
      return defined((a) => equals(a));
    }
    case '!=': {
      requireValue(value, at, hasValue);
      const equals = equalTo(value);
      return defined((a) => !equals(a));
    }
    case '>':
      orderable(value, at);
      return defined((a) => (compare(a, value) ?? Number.NaN) > 0);
    case '>=':
      orderable(value, at);
      return defined((a) => (compare(a, value) ?? Number.NaN) >= 0);
    case '<':
      orderable(value, at);
      return defined((a) => (compare(a, value) ?? Number.NaN) < 0);
    case '<=':
      orderable(value, at);
      return defined((a) => (compare(a, value) ?? Number.NaN) <= 0);
    case 'in': {
      const options = list(value, at).map(equalTo);
      return defined((a) => options.some((equals) => equals(a)));
    }
    case 'notIn': {
      const options = list(value, at).map(equalTo);
      return defined((a) => !options.some((equals) => equals(a)));
    }
    case 'contains':
      requireValue(value, at, hasValue);
      return defined((a) =>
        typeof a === 'string' ? typeof value === 'string' && a.includes(value) : Array.isArray(a) && a.some((e) => strictEquals(e, value)),
      );
    case 'startsWith':
      if (typeof value !== 'string') throw new QueryError(at, 'must be a string for startsWith');
      return defined((a) => typeof a === 'string' && a.startsWith(value));
    case 'isDefined': {
      if (hasValue && typeof value !== 'boolean') throw new QueryError(at, 'must be true or false for isDefined');
      const want = hasValue ? (value as boolean) : true;
      return (a) => (a !== undefined && a !== null) === want;
    }
    case 'matchRegex': {
      if (typeof value !== 'string') throw new QueryError(at, 'must be a regular expression string');
      if (value.length > limits.maxPatternLength) throw new QueryError(at, `must be at most ${limits.maxPatternLength} characters`);
      let re: RE2JS;
      try {
        // RE2 semantics: linear time in the input, so no pattern can backtrack catastrophically.
        re = RE2JS.compile(value);
      } catch (err) {
        throw new QueryError(at, `is not a supported regular expression (RE2 syntax: no lookaround or backreferences): ${(err as Error).message}`);
      }
      return defined((a) => typeof a === 'string' && re.matcher(a).find());
    }
  }
}

/** strictEquals against a fixed value, with the common scalar cases decided without a date parse. */
function equalTo(expected: unknown): (actual: unknown) => boolean {
  if (typeof expected === 'string' && asDate(expected) === undefined) return (a) => a === expected;
  if (typeof expected === 'number' || typeof expected === 'boolean' || expected === null) return (a) => a === expected;
  return (a) => strictEquals(a, expected);
}
