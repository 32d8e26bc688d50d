import { parseInnerPath, readPath } from './claim-path.js';
import { QueryError } from './errors.js';

/** Applies a lens to a claim's value; throws a QueryError at `at` when the value does not fit. */
export type Lens = (value: unknown, at: string) => unknown;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `"at"`: the value itself. `{at: path}`: the value at a path inside it. `{pluck: field}`: from an
 * array of objects, the array of that field. `{pick: [keys]}`: from an object, only those keys.
 */
export function compileLens(lens: unknown, at: string): Lens {
  if (lens === 'at') return (value) => value;
  if (!isObject(lens) || Object.keys(lens).length !== 1) throw new QueryError(at, 'must be "at" or an object with one of at, pluck, pick');
  if (Object.hasOwn(lens, 'at')) {
    const path = parseInnerPath(lens.at, `${at}.at`);
    return (value) => {
      const found = readPath(value, path);
      return found === undefined ? null : found;
    };
  }
  if (Object.hasOwn(lens, 'pluck')) {
    const field = lens.pluck;
    if (typeof field !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(field)) throw new QueryError(`${at}.pluck`, 'must be a field name');
    return (value, where) => {
      if (!Array.isArray(value) || !value.every(isObject)) throw new QueryError(where, 'pluck needs a claim whose value is an array of objects');
      return value.map((item) => (Object.hasOwn(item, field) ? item[field] : null));
    };
  }
  if (Object.hasOwn(lens, 'pick')) {
    const keys = lens.pick;
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > 50 || !keys.every((k) => typeof k === 'string' && k.length > 0 && k.length <= 64)) {
      throw new QueryError(`${at}.pick`, 'must be a non-empty array of field names');
    }
    return (value, where) => {
      if (!isObject(value)) throw new QueryError(where, 'pick needs a claim whose value is an object');
      const out: Record<string, unknown> = {};
      for (const key of keys as string[]) if (Object.hasOwn(value, key)) out[key] = value[key];
      return out;
    };
  }
  throw new QueryError(at, 'must be "at" or an object with one of at, pluck, pick');
}
