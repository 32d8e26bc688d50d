import { type Db, outboxInsert } from '@svc/db';
import { isUuid, type WalletEvent, webhookEvent } from '@svc/schemas';
import { invalidField } from '../http/errors.js';
import { credentialNotFound } from './errors.js';
import type { SignedFacts } from '../vc/signed-facts.js';
import { BITSTRING_ENTRY_IRI, ownPlace } from '../status-lists/status-lists.js';

/** The credential's id as it was signed: a bare UUID stands for `urn:uuid:<uuid>`; else any URL. */
export function credentialIdOf(id: string, field: string): string {
  if (isUuid(id)) return `urn:uuid:${id.toLowerCase()}`;
  const uuid = id.startsWith('urn:uuid:') ? id.slice('urn:uuid:'.length) : undefined;
  if (uuid !== undefined) {
    if (!isUuid(uuid)) throw invalidField(field, 'must be urn:uuid:<uuid>, a UUID, or the URL the credential was issued with');
    return `urn:uuid:${uuid.toLowerCase()}`;
  }
  if (!URL.canParse(id)) throw invalidField(field, 'must be urn:uuid:<uuid>, a UUID, or the URL the credential was issued with');
  return id;
}

/** The caller's own credential; another organization's is 404, as if it did not exist. */
async function own(db: Db, organizationId: string, credentialId: string) {
  const record = await db.issuedCredential.findUnique({ where: { organizationId_credentialId: { organizationId, credentialId } } });
  if (!record) throw credentialNotFound();
  return record;
}

/**
 * Revokes the credential `credentialId` names and, when it is one of a batch's copies (or the
 * batch's record), every copy of that batch: a wallet's copies are one credential to the
 * organization. Idempotent.
 */
export async function revokeCredential(db: Db, organizationId: string, credentialId: string, now: Date) {
  const record = await own(db, organizationId, credentialId);
  if (record.revokedAt) return { revoked: true as const, credential_id: record.credentialId, revoked_at: record.revokedAt.toISOString(), newly: false };
  const batch = record.batchOf ?? record.id;
  const lead = record.batchOf ? await db.issuedCredential.findUniqueOrThrow({ where: { id: batch } }) : record;
  // Idempotent, also when two revocations race (the API and the identity provider's event): only
  // the one that sets the bits moves the lists' versions (so the next request for a list, on any
  // replica, signs it anew) and tells the organization's webhook endpoints, all in its transaction.
  const newly = await db.$transaction(async (tx) => {
    const copies = await tx.issuedCredential.findMany({
      where: { OR: [{ id: batch }, { batchOf: batch }], revokedAt: null },
      select: { id: true, statusListId: true },
    });
    const set = await tx.issuedCredential.updateMany({
      where: { id: { in: copies.map((c) => c.id) }, revokedAt: null },
      data: { status: 'revoked', revokedAt: now },
    });
    if (set.count === 0) return false;
    const lists = [...new Set(copies.flatMap((c) => (c.statusListId ? [c.statusListId] : [])))];
    if (lists.length) await tx.statusList.updateMany({ where: { id: { in: lists } }, data: { version: { increment: 1 } } });
    await outboxInsert(tx, { organizationId, event: webhookEvent('credential.revoked', { credential_id: lead.credentialId }), subject: lead.credentialId });
    return true;
  });
  const revokedAt = newly ? now : ((await own(db, organizationId, credentialId)).revokedAt ?? now);
  return { revoked: true as const, credential_id: record.credentialId, revoked_at: revokedAt.toISOString(), newly };
}

export async function credentialStatus(db: Db, organizationId: string, credentialId: string) {
  const record = await own(db, organizationId, credentialId);
  return { credential_id: record.credentialId, revoked: record.status === 'revoked', revoked_at: record.revokedAt?.toISOString() ?? null };
}

// The registry entry's type as signed (CREDENTIAL_STATUS_TYPE, of any deployment's past
// configuration): the spec's shape maps it with the undefined-terms context, the VC API shape with
// the entry's own @vocab (issue-credential.ts). The record it names, of this issuer, is what counts.
const REGISTRY_NAMESPACES = ['https://www.w3.org/ns/credentials/undefined-term#', 'https://www.w3.org/ns/credentials/issuer-dependent#'];
const isRegistryType = (type: string) => REGISTRY_NAMESPACES.some((ns) => type.startsWith(ns));

/**
 * Revocation as any verifier may learn it, from what the credential's signed data states (its
 * status entries and id, never its JSON members): the bit a Bitstring Status List entry names in
 * one of this issuer's lists, or the record a registry entry names (its id, or the credential's own
 * urn:uuid id in the spec's shape), in either case only a record of `issuer`'s own. Status lists
 * elsewhere are never fetched: their URLs come back as `unchecked`. `own` counts the entries that
 * named a record of this issuer.
 */
export async function revocationOf(
  db: Db,
  publicUrl: string,
  issuer: string,
  facts: SignedFacts,
): Promise<{ revoked: boolean; unchecked: string[]; own: number }> {
  let revoked = false;
  let own = 0;
  const unchecked: string[] = [];
  for (const entry of facts.statuses) {
    if (entry.types.includes(BITSTRING_ENTRY_IRI)) {
      const [url, index] = [entry.statusListCredential, entry.statusListIndex];
      const place = url.length === 1 && index.length === 1 ? ownPlace(publicUrl, { statusListCredential: url[0]!, statusListIndex: index[0]! }) : undefined;
      if (!place) {
        unchecked.push(url.join(' ') || '(no statusListCredential)');
        continue;
      }
      const list = await db.statusList.findUnique({ where: { id: place.listId }, select: { issuerDid: true } });
      if (list?.issuerDid !== issuer) {
        unchecked.push(url[0]!);
        continue;
      }
      own++;
      const record = await db.issuedCredential.findUnique({
        where: { statusListId_statusListIndex: { statusListId: place.listId, statusListIndex: place.index } },
        select: { status: true },
      });
      // An index no credential holds is a bit that is never set.
      revoked ||= record?.status === 'revoked';
      continue;
    }
    // Any other entry (another issuer's registry, StatusList2021, ...) is said to be unchecked, never passed over in silence.
    const notChecked = () => unchecked.push(entry.id ?? `a ${entry.types.join(' ') || 'untyped'} entry`);
    if (!entry.types.some(isRegistryType)) {
      notChecked();
      continue;
    }
    const named = entry.id ?? facts.id;
    if (typeof named !== 'string' || !named.startsWith('urn:uuid:') || !isUuid(named.slice(9))) {
      notChecked();
      continue;
    }
    const record = await db.issuedCredential.findUnique({ where: { id: named.slice(9).toLowerCase() }, select: { status: true, issuerDid: true } });
    if (record?.issuerDid !== issuer) {
      notChecked();
      continue;
    }
    own++;
    revoked ||= record.status === 'revoked';
  }
  return { revoked, unchecked, own };
}

interface Cursor {
  t: string;
  id: string;
}

export async function listCredentials(
  db: Db,
  organizationId: string,
  query: { subjectAddress?: string | undefined; limit: number; cursor?: string | undefined },
) {
  let after: Cursor | undefined;
  if (query.cursor) {
    try {
      after = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')) as Cursor;
      if (typeof after.t !== 'string' || !isUuid(after.id) || Number.isNaN(Date.parse(after.t))) throw new Error('shape');
    } catch {
      throw invalidField('query.cursor', 'is not a cursor this endpoint returned');
    }
  }
  const rows = await db.issuedCredential.findMany({
    where: {
      organizationId,
      // A batch is listed once, as its record.
      batchOf: null,
      ...(query.subjectAddress ? { subjectAddress: query.subjectAddress } : {}),
      ...(after ? { OR: [{ createdAt: { lt: new Date(after.t) } }, { createdAt: new Date(after.t), id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const batches = await db.issuedCredential.groupBy({ by: ['batchOf'], where: { batchOf: { in: page.map((r) => r.id) } }, _count: { _all: true } });
  const copiesOf = new Map(batches.map((b) => [b.batchOf!, b._count._all + 1]));
  return {
    items: page.map((r) => ({
      id: r.credentialId,
      subject_address: r.subjectAddress,
      issuer: r.issuerDid,
      claim_names: r.claimNames,
      status: r.status,
      format: r.format as 'ldp_vc' | 'dc+sd-jwt' | 'mso_mdoc',
      copies: copiesOf.get(r.id) ?? 1,
      wallet_event: r.walletEvent as WalletEvent | null,
      issued_at: r.createdAt.toISOString(),
      valid_from: r.validFrom.toISOString(),
      valid_until: r.validUntil?.toISOString() ?? null,
      revoked_at: r.revokedAt?.toISOString() ?? null,
    })),
    next_cursor: rows.length > query.limit && last ? Buffer.from(JSON.stringify({ t: last.createdAt.toISOString(), id: last.id })).toString('base64url') : null,
  };
}
