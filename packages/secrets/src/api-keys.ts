import { type Environment, marked } from './environments.js';
import { constantTimeEqual, randomBase62, sha256Hex } from './random.js';

/**
 * API keys look like `svck_<prefix>_<secret><check>` (after `sbx_` in the sandbox, environments.ts):
 * - `prefix` (8 base62) is public: stored in clear, shown in listings, logged;
 * - `secret` (43 base62, ~256 bits) is never stored;
 * - `check` (6 hex) is derived from the rest, so a mistyped or made-up key is refused
 *   before any I/O and secret scanners can recognise real ones.
 * The database keeps SHA-256 of the whole key: it is random, so a slow hash adds nothing.
 */
const KEY_PATTERN = /^(sbx_)?svck_([0-9A-Za-z]{8})_([0-9A-Za-z]{43})([0-9a-f]{6})$/;

export interface GeneratedApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export interface ParsedApiKey {
  prefix: string;
  hash: string;
  environment: Environment;
}

function checkOf(body: string): string {
  return sha256Hex(`svck-check:${body}`).slice(0, 6);
}

export function generateApiKey(environment: Environment = 'production'): GeneratedApiKey {
  const prefix = randomBase62(8);
  const body = marked(environment, `svck_${prefix}_${randomBase62(43)}`);
  const key = body + checkOf(body);
  return { key, prefix, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** Undefined for anything that is not a well-formed key of ours. */
export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const body = key.slice(0, -6);
  if (!constantTimeEqual(checkOf(body), match[4]!)) return undefined;
  return { prefix: match[2]!, hash: hashApiKey(key), environment: match[1] ? 'sandbox' : 'production' };
}
