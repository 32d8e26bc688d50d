import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { type Db, type Sql, statement } from '@svc/db';
import { isUuid } from '@svc/schemas';
import { CREDENTIALS_V2 } from '../vc/document-loader.js';

/**
 * Bitstring Status List §6.1: at least 16 KiB (131,072 entries), so one index tells a verifier
 * little about which credential it is looking at.
 */
export const STATUS_LIST_LENGTH = 131_072;
export const BITSTRING_ENTRY = 'BitstringStatusListEntry';
const STATUS_NS = 'https://www.w3.org/ns/credentials/status#';
/** The same types as the signed data states them (full IRIs). */
export const BITSTRING_ENTRY_IRI = `${STATUS_NS}${BITSTRING_ENTRY}`;
export const STATUS_LIST_CREDENTIAL = `${STATUS_NS}BitstringStatusListCredential`;

/**
 * Index `n` of a list, through a keyed pseudo-random permutation of [0, length): a four-round
 * Feistel network on 18 bits with HMAC-SHA-256 rounds, walked until it lands inside the list.
 * Indexes are unique by construction and, without the list's key, say nothing about the order in
 * which credentials were issued (§6.4, "herd privacy").
 */
export function permutedIndex(key: Buffer, n: number, length = STATUS_LIST_LENGTH): number {
  const half = 9;
  const mask = (1 << half) - 1;
  let value = n;
  do {
    let left = value >>> half;
    let right = value & mask;
    for (let round = 0; round < 4; round++) {
      const f = createHmac('sha256', key).update(`${round}:${right}`).digest().readUInt16BE(0) & mask;
      [left, right] = [right, left ^ f];
    }
    value = (left << half) | right;
  } while (value >= length);
  return value;
}

export interface StatusListPlace {
  listId: string;
  index: number;
}

/**
 * One index in an open list of `issuerDid`, taken in one statement that also counts it; a new list
 * when every list of this DID is full. Indexes taken by a signing that then fails stay unused.
 */
const TAKE_INDEX = statement<{ id: string; n: number; length: number; permutationKey: Buffer }>(
  'status_list_take',
  `UPDATE "StatusList" SET "allocated" = "allocated" + 1
    WHERE "id" = (SELECT "id" FROM "StatusList" WHERE "issuerDid" = $1 AND "allocated" < "length" ORDER BY "createdAt" LIMIT 1 FOR UPDATE)
      AND "allocated" < "length"
    RETURNING "id", "allocated" - 1 AS n, "length", "permutationKey"`,
);

/**
 * One index in an open list of `issuerDid`, taken in one statement that also counts it; a new list
 * when every list of this DID is full. Indexes taken by a signing that then fails stay unused.
 * Token Status Lists (SD-JWT VCs) are kept under the issuer's URL instead of a DID, so the two
 * kinds never share a list.
 */
export async function allocateStatusIndex(db: Db, sql: Sql, issuerDid: string, format: 'bitstring' | 'token' = 'bitstring'): Promise<StatusListPlace> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await sql.one(TAKE_INDEX, [issuerDid]);
    if (row) return { listId: row.id, index: permutedIndex(row.permutationKey, row.n, row.length) };
    await db.statusList.create({ data: { id: randomUUID(), issuerDid, length: STATUS_LIST_LENGTH, permutationKey: randomBytes(32), format } });
  }
  throw new Error('could not allocate a status list index');
}

/** Where a list is served: stable for the list's life, public, no API token. */
export const statusListUrl = (publicUrl: string, listId: string) => `${publicUrl}/status-lists/${listId}`;

/** The credentialStatus entry that points a verifier at the list and the credential's bit. */
export const bitstringEntry = (publicUrl: string, place: StatusListPlace) => ({
  id: `${statusListUrl(publicUrl, place.listId)}#${place.index}`,
  type: BITSTRING_ENTRY,
  statusPurpose: 'revocation',
  statusListIndex: String(place.index),
  statusListCredential: statusListUrl(publicUrl, place.listId),
});

/** The list and index a bitstring entry names, if it points at one of this issuer's lists. */
export function ownPlace(publicUrl: string, entry: { statusListCredential: string; statusListIndex: string }): StatusListPlace | undefined {
  const url = entry.statusListCredential;
  const prefix = `${publicUrl}/status-lists/`;
  if (!url.startsWith(prefix)) return undefined;
  const listId = url.slice(prefix.length);
  const index = Number(entry.statusListIndex);
  if (!isUuid(listId) || !Number.isInteger(index) || index < 0 || String(index) !== entry.statusListIndex) return undefined;
  return { listId: listId.toLowerCase(), index };
}

/** The GZIP-compressed, base64url, multibase `u`-prefixed bitstring (§3.2), first index in the top bit. */
export function encodeList(length: number, setIndexes: Iterable<number>): string {
  const bits = Buffer.alloc(length / 8);
  for (const i of setIndexes) bits[i >> 3]! |= 0x80 >> (i & 7);
  return `u${gzipSync(bits).toString('base64url')}`;
}

/** The unsigned BitstringStatusListCredential for a list, as of now. */
export function statusListCredential(
  publicUrl: string,
  list: { id: string; issuerDid: string; length: number; statusPurpose: string },
  revoked: number[],
  now: Date,
  ttlMs: number,
) {
  const id = statusListUrl(publicUrl, list.id);
  return {
    '@context': [CREDENTIALS_V2],
    id,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: list.issuerDid,
    validFrom: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    credentialSubject: {
      id: `${id}#list`,
      type: 'BitstringStatusList',
      statusPurpose: list.statusPurpose,
      encodedList: encodeList(list.length, revoked),
      ttl: ttlMs,
    },
  };
}
