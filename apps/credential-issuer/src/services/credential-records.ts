import type { Db } from '@svc/db';
import { NotFoundError, ValidationError } from '@svc/http';
import { isUuid } from '@svc/schemas';


/** `urn:uuid:…` or the bare UUID; anything else is a 400 naming the field. */
export function credentialUuid(id: string, field: string): string {
  const bare = id.startsWith('urn:uuid:') ? id.slice('urn:uuid:'.length) : id;
  if (!isUuid(bare)) throw new ValidationError([{ field, message: 'must be urn:uuid:<uuid> or a UUID' }]);
  return bare.toLowerCase();
}

/** The caller's own credential; another organization's is 404, as if it did not exist. */
async function own(db: Db, organizationId: string, id: string) {
  const record = await db.issuedCredential.findUnique({ where: { id } });
  if (!record || record.organizationId !== organizationId) throw new NotFoundError('No such credential', 'credential_not_found');
  return record;
}

export async function revokeCredential(db: Db, organizationId: string, id: string, now: Date) {
  const record = await own(db, organizationId, id);
  // Idempotent: the first revocation's time stands.
  const revokedAt = record.revokedAt ?? now;
  if (!record.revokedAt) await db.issuedCredential.update({ where: { id }, data: { status: 'revoked', revokedAt } });
  return { revoked: true as const, credential_id: `urn:uuid:${id}`, revoked_at: revokedAt.toISOString(), newly: !record.revokedAt };
}

export async function credentialStatus(db: Db, organizationId: string, id: string) {
  const record = await own(db, organizationId, id);
  return { credential_id: `urn:uuid:${id}`, revoked: record.status === 'revoked', revoked_at: record.revokedAt?.toISOString() ?? null };
}

/** Revocation as any verifier may learn it: undefined for a credential this issuer did not record. */
export async function revocationOf(db: Db, credentialId: unknown): Promise<{ revoked: boolean } | undefined> {
  if (typeof credentialId !== 'string') return undefined;
  const bare = credentialId.startsWith('urn:uuid:') ? credentialId.slice(9) : '';
  if (!isUuid(bare)) return undefined;
  const record = await db.issuedCredential.findUnique({ where: { id: bare.toLowerCase() }, select: { status: true } });
  return record ? { revoked: record.status === 'revoked' } : undefined;
}

interface Cursor {
  t: string;
  id: string;
}

export async function listCredentials(db: Db, organizationId: string, query: { subjectAddress?: string | undefined; limit: number; cursor?: string | undefined }) {
  let after: Cursor | undefined;
  if (query.cursor) {
    try {
      after = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')) as Cursor;
      if (typeof after.t !== 'string' || !isUuid(after.id) || Number.isNaN(Date.parse(after.t))) throw new Error('shape');
    } catch {
      throw new ValidationError([{ field: 'query.cursor', message: 'is not a cursor this endpoint returned' }]);
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
      id: `urn:uuid:${r.id}`,
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
