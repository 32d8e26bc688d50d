// ISO 8601 calendar dates and date-times, as presets carry them (`1990-04-12`, `2026-10-01T09:30:00Z`).
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Epoch ms of an ISO date string, or undefined for anything else (no Date.parse leniency). */
export function asDate(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return undefined;
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Equality without coercion: "18" is not 18, true is not 1, null only equals null. Two ISO dates
 * are equal when they denote the same instant; arrays and objects compare element by element.
 */
export function strictEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null) return false;
  if (typeof a === 'string') {
    const da = asDate(a);
    const db = asDate(b);
    return da !== undefined && da === db;
  }
  if (typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => strictEquals(v, other[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b as object, k) && strictEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Orders two numbers, or two ISO dates as instants; undefined when they are not comparable. */
export function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b)) return a - b;
  const da = asDate(a);
  const db = asDate(b);
  return da !== undefined && db !== undefined ? da - db : undefined;
}

export function isJsonScalar(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}
