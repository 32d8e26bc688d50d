import { hash, randomFillSync, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/*
 * Random bytes drawn from one buffer filled by the CSPRNG a few kilobytes at a time, as node's
 * randomUUID does: a token then costs no allocation of its own (randomBytes made a buffer per
 * token). Each byte is read once and zeroed as it is taken, so none is used twice or lingers.
 */
const entropy = Buffer.alloc(4096);
let taken = entropy.length;

function randomByte(): number {
  if (taken === entropy.length) {
    randomFillSync(entropy);
    taken = 0;
  }
  const byte = entropy[taken]!;
  entropy[taken++] = 0;
  return byte;
}

/** `length` base62 characters from the CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 62 * 4: bytes above it would favour the first characters.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

// One-shot hash(): no Hash object per call, a quarter of createHash's time on a short string (an
// API key is hashed twice on every request that presents one).
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function sha256Base64Url(value: string): string {
  return hash('sha256', value, 'base64url');
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Still spend the comparison so a length mismatch is not measurably faster.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
