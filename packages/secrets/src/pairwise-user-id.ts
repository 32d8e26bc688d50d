import { type Cipheriv, createCipheriv, createDecipheriv, type Decipheriv } from 'node:crypto';
import { deriveKey } from './sealing.js';

/*
 * The user id an organization sees: wallet-verify's `user_id`, which the organization's
 * confidential clients may pass back to /oauth/client/user-token. Pairwise, like the identity
 * provider's app_scoped_user_id: stable per (user, organization), unlinkable across organizations
 * without PAIRWISE_SECRET. Unlike app_scoped_user_id (an HMAC, one-way), the identity provider must
 * map it back to the user, so it is a keyed permutation rather than a hash: the user's UUID
 * encrypted with AES-256 (one block) under a key of the organization's own, shown as a version-8
 * UUID (RFC 9562 §5.8). Its version and variant overwrite 6 of the ciphertext's 128 bits; the
 * way back tries the 64 values they may have held, of which one is the user (a wrong one decrypts
 * to random bits, which name no user).
 */

const keyOf = (secret: string, organizationId: string) => deriveKey(secret, `pairwise-user-id:${organizationId.toLowerCase()}`);

/*
 * Each organization's AES-256-ECB pair, kept: deriving the key and setting up a cipher cost more
 * than the one block encrypted (a fifth of a wallet verification's CPU, measured). ECB without
 * padding holds no state from one update to the next, so one cipher serves every call. At most
 * CIPHERS_KEPT organizations are kept; past that the oldest is dropped and made again when asked.
 */
const CIPHERS_KEPT = 10_000;
const ciphers = new Map<string, { encrypt: Cipheriv; decrypt: Decipheriv }>();

function ciphersOf(secret: string, organizationId: string) {
  const id = `${secret}\0${organizationId.toLowerCase()}`;
  let pair = ciphers.get(id);
  if (!pair) {
    const key = keyOf(secret, organizationId);
    pair = {
      encrypt: createCipheriv('aes-256-ecb', key, null).setAutoPadding(false),
      decrypt: createDecipheriv('aes-256-ecb', key, null).setAutoPadding(false),
    };
    if (ciphers.size >= CIPHERS_KEPT) ciphers.delete(ciphers.keys().next().value!);
    ciphers.set(id, pair);
  }
  return pair;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bytesOf = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');

function textOf(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The UUID `organizationId` knows the user `userId` by. */
export function pairwiseUserId(secret: string, organizationId: string, userId: string): string {
  if (!UUID.test(userId)) throw new Error('pairwiseUserId: the user id must be a UUID');
  const block = ciphersOf(secret, organizationId).encrypt.update(bytesOf(userId));
  block[6] = (block[6]! & 0x0f) | 0x80; // version 8
  block[8] = (block[8]! & 0x3f) | 0x80; // variant 10
  return textOf(block);
}

/** Whether `value` has the form of a pairwise user id (a version-8 UUID); users' own ids never do. */
export function isPairwiseUserId(value: string): boolean {
  return UUID.test(value) && value[14] === '8' && '89abAB'.includes(value[19]!);
}

/**
 * The user ids `pairwiseId` may stand for in `organizationId`: 64 candidates, of which at most
 * one is a user's (the others are random); none when it is not a pairwise id. Another
 * organization's pairwise id gives candidates that are all random.
 */
export function pairwiseCandidates(secret: string, organizationId: string, pairwiseId: string): string[] {
  if (!isPairwiseUserId(pairwiseId)) return [];
  const shown = bytesOf(pairwiseId);
  const blocks = Buffer.alloc(16 * 64);
  for (let bits = 0; bits < 64; bits++) {
    const block = blocks.subarray(bits * 16, bits * 16 + 16);
    shown.copy(block);
    block[6] = (block[6]! & 0x0f) | ((bits & 0x0f) << 4);
    block[8] = (block[8]! & 0x3f) | ((bits >> 4) << 6);
  }
  const plain = ciphersOf(secret, organizationId).decrypt.update(blocks);
  return Array.from({ length: 64 }, (_, i) => textOf(plain.subarray(i * 16, i * 16 + 16)));
}
