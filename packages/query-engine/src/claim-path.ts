import { QueryError } from './errors.js';

export type Segment = string | number;

export interface ClaimPath {
  /** The claim as written, e.g. `social_accounts[0].provider`. */
  raw: string;
  preset: string;
  segments: Segment[];
}

// Each alternative starts with a different character, so matching is linear (no backtracking).
const CLAIM = /^([a-z][a-z0-9_]{0,63})((?:\.[A-Za-z_][A-Za-z0-9_]{0,63}|\[\d{1,6}\])*)$/;
const SEGMENT = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g;

export function parseClaim(raw: unknown, at: string, maxLength: number): ClaimPath {
  if (typeof raw !== 'string') throw new QueryError(at, 'must be a string: a preset name, optionally followed by a path such as social_accounts[0].provider');
  if (raw.length > maxLength) throw new QueryError(at, `must be at most ${maxLength} characters`);
  const match = CLAIM.exec(raw);
  if (!match) throw new QueryError(at, `"${raw}" is not a preset name optionally followed by .field or [index] steps`);
  return { raw, preset: match[1]!, segments: parseSegments(match[2]!) };
}

/** A path inside a value, as a lens takes it: `a.b[0]`, `[2]`, or a bare index. */
export function parseInnerPath(raw: unknown, at: string): Segment[] {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return [raw];
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 200) throw new QueryError(at, 'must be a path such as "a.b[0]" or an array index');
  const normalized = raw.startsWith('[') ? raw : `.${raw}`;
  if (!/^(?:\.[A-Za-z_][A-Za-z0-9_]{0,63}|\[\d{1,6}\])+$/.test(normalized)) throw new QueryError(at, `"${raw}" is not a path of .field or [index] steps`);
  return parseSegments(normalized);
}

function parseSegments(text: string): Segment[] {
  const out: Segment[] = [];
  for (const m of text.matchAll(SEGMENT)) out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return out;
}

/**
 * Follows `segments` through own properties only: `constructor`, `__proto__` and other inherited
 * names are never reached, and a field step on an array or an index step on an object is absent.
 */
export function readPath(value: unknown, segments: Segment[]): unknown {
  let current = value;
  for (const step of segments) {
    if (typeof step === 'number') {
      if (!Array.isArray(current) || step >= current.length) return undefined;
      current = current[step];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}
