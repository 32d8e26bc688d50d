import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { SigningPool } from '../vc/signing-pool.js';
import type { IssuerKeys } from '../keys/issuer-keys.js';
import { statusListCredential } from './status-lists.js';

export interface PublishedList {
  credential: Record<string, unknown>;
  /** Bumped by every revocation of a credential in the list: the HTTP entity tag. */
  version: number;
}

/**
 * Serves each status list as signed for its current version. The signed credential is kept in the
 * list's row, so a list is signed once per change for every replica, and the row's version makes a
 * revocation visible to the next request on any replica.
 */
export class StatusListPublisher {
  // Concurrent requests for a list that needs signing share one signing.
  private readonly inFlight = new Map<string, Promise<PublishedList>>();

  constructor(
    private readonly deps: { db: Db; pool: SigningPool; issuerKeys: IssuerKeys; clock: Clock },
    private readonly publicUrl: string,
    private readonly ttlMs: number,
  ) {}

  async current(listId: string): Promise<PublishedList | undefined> {
    const row = await this.deps.db.statusList.findUnique({ where: { id: listId } });
    // A Token Status List is served as a JWT at its own URL (../openid4vci/token-status-lists.ts).
    if (row?.format !== 'bitstring') return undefined;
    if (row.signed && row.signedVersion === row.version) return { credential: row.signed as Record<string, unknown>, version: row.version };
    const key = `${row.id}:${row.version}`;
    let signing = this.inFlight.get(key);
    if (!signing) {
      signing = this.sign(row).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, signing);
    }
    return signing;
  }

  private async sign(row: { id: string; issuerDid: string; length: number; statusPurpose: string; version: number }): Promise<PublishedList> {
    const { db, pool, issuerKeys, clock } = this.deps;
    // Read after the version, so the bits are at least as new as the version they are stored under.
    const revoked = await db.issuedCredential.findMany({ where: { statusListId: row.id, revokedAt: { not: null } }, select: { statusListIndex: true } });
    const key = await issuerKeys.forDid(row.issuerDid);
    if (!key) throw new Error(`status list ${row.id}: the key of ${row.issuerDid} is gone`);
    const now = clock.now();
    const unsigned = statusListCredential(
      this.publicUrl,
      row,
      revoked.map((r) => r.statusListIndex!),
      now,
      this.ttlMs,
    );
    const credential = await pool.run<Record<string, unknown>>('signStatusList', { credential: unsigned, key, created: now }, 'status-lists');
    const stored = await db.statusList.updateMany({
      where: { id: row.id, OR: [{ signedVersion: null }, { signedVersion: { lt: row.version } }] },
      data: { signed: credential as object, signedVersion: row.version },
    });
    if (stored.count === 0) {
      // Another replica stored this version first: serve its copy, so every replica answers the same bytes.
      const winner = await db.statusList.findUnique({ where: { id: row.id } });
      if (winner?.signed && winner.signedVersion === row.version) return { credential: winner.signed as Record<string, unknown>, version: row.version };
    }
    return { credential, version: row.version };
  }
}
