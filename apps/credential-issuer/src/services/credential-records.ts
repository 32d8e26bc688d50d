import type { Db } from '@svc/db';
import { isUuid } from '@svc/schemas';
import { credentialNotFound, invalidField } from '../errors.js';

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

export async function revokeCredential(db: Db, organizationId: string, credentialId: string, now: Date) {
  const record = await own(db, organizationId, credentialId);
  // Idempotent: the first revocation's time stands.
  const revokedAt = record.revokedAt ?? now;
  if (!record.revokedAt) await db.issuedCredential.update({ where: { id: record.id }, data: { status: 'revoked', revokedAt } });
  return { revoked: true as const, credential_id: record.credentialId, revoked_at: revokedAt.toISOString(), newly: !record.revokedAt };
}

export async function credentialStatus(db: Db, organizationId: string, credentialId: string) {
  const record = await own(db, organizationId, credentialId);
  return { credential_id: record.credentialId, revoked: record.status === 'revoked', revoked_at: record.revokedAt?.toISOString() ?? null };
}

/**
 * Revocation as any verifier may learn it, from the record the signed credentialStatus names (its
 * `id`), or for credentials issued in the spec's shape, from the credential's own urn:uuid id.
 * Undefined for a credential this issuer did not record.
 */
export async function revocationOf(db: Db, credential: Record<string, unknown>): Promise<{ revoked: boolean } | undefined> {
  const status = credential.credentialStatus as { id?: unknown } | undefined;
  const named = typeof status?.id === 'string' ? status.id : credential.id;
  if (typeof named !== 'string' || !named.startsWith('urn:uuid:') || !isUuid(named.slice(9))) return undefined;
  const record = await db.issuedCredential.findUnique({ where: { id: named.slice(9).toLowerCase() }, select: { status: true } });
  return record ? { revoked: record.status === 'revoked' } : undefined;
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
      ...(query.subjectAddress ? { subjectAddress: query.subjectAddress } : {}),
      ...(after ? { OR: [{ createdAt: { lt: new Date(after.t) } }, { createdAt: new Date(after.t), id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.credentialId,
      subject_address: r.subjectAddress,
      issuer: r.issuerDid,
      claim_names: r.claimNames,
      status: r.status,
      issued_at: r.createdAt.toISOString(),
      valid_from: r.validFrom.toISOString(),
      valid_until: r.validUntil?.toISOString() ?? null,
      revoked_at: r.revokedAt?.toISOString() ?? null,
    })),
    next_cursor: rows.length > query.limit && last ? Buffer.from(JSON.stringify({ t: last.createdAt.toISOString(), id: last.id })).toString('base64url') : null,
  };
}
