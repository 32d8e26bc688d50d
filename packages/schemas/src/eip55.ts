import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export type AddressCheck =
  | { ok: true; address: string }
  | { ok: false; reason: 'missing' | 'prefix' | 'length' | 'characters' | 'checksum'; message: string; expected?: string };

const HEX40 = /^[0-9a-fA-F]{40}$/;

// Addresses already proven checksummed: the same wallets are asked about again and again, and the
// Keccak hash is most of a wallet check's CPU. Bounded; emptied when full (refilled by use).
const CHECKED_LIMIT = 10_000;
const checked = new Set<string>();

/** The EIP-55 mixed-case form of 40 hex digits (any case). */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lower[i]!;
    out += parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/**
 * Strict EIP-55: `0x`, 40 hex digits, and the exact mixed-case checksum. All-lowercase and
 * all-uppercase forms carry no checksum and are refused too (unlike viem/ethers' getAddress,
 * which correct or accept them). A correctable address is answered with the form it should have.
 */
export function checkAddress(input: string | undefined | null): AddressCheck {
  if (input === undefined || input === null || input === '') {
    return { ok: false, reason: 'missing', message: 'is required: an EIP-55 checksummed address such as 0x52908400098527886E0F7030069857D2E4169EE7' };
  }
  if (!input.startsWith('0x')) {
    const body = input.startsWith('0X') ? input.slice(2) : input;
    const expected = HEX40.test(body) ? toChecksumAddress(body) : undefined;
    return { ok: false, reason: 'prefix', message: 'must start with "0x"', ...(expected ? { expected } : {}) };
  }
  if (checked.has(input)) return { ok: true, address: input };
  const body = input.slice(2);
  if (body.length !== 40) {
    return { ok: false, reason: 'length', message: `must have 40 hexadecimal digits after "0x", got ${body.length}` };
  }
  if (!HEX40.test(body)) {
    return { ok: false, reason: 'characters', message: 'must contain only hexadecimal digits (0-9, a-f, A-F) after "0x"' };
  }
  const expected = toChecksumAddress(body);
  if (input !== expected) {
    const why = body === body.toLowerCase() || body === body.toUpperCase() ? 'has no EIP-55 checksum (single-case)' : 'fails the EIP-55 checksum';
    return { ok: false, reason: 'checksum', message: `${why}; the checksummed form is ${expected}`, expected };
  }
  if (checked.size >= CHECKED_LIMIT) checked.clear();
  checked.add(input);
  return { ok: true, address: input };
}
