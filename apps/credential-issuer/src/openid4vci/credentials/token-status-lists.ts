/**
 * IETF Token Status Lists (draft-ietf-oauth-status-list) for SD-JWT VCs: one bit per credential,
 * index 0 in the least significant bit of the first byte, the bytes DEFLATE-compressed with a
 * ZLIB header, served as a signed `statuslist+jwt` at the URI each credential's `status` names.
 * The lists live beside the Bitstring ones (same table, same keyed permutation of indexes, the
 * same revocation flips both kinds); a list is either kind, never both.
 */
import { deflateSync } from 'node:zlib';
import type { Db } from '@svc/db';
import { SignJWT } from 'jose';
import type { JwtSigningKey } from '../../keys/issuer-keys.js';

export const TOKEN_STATUS_LIST_TYP = 'statuslist+jwt';

export const tokenStatusListUrl = (publicUrl: string, listId: string) => `${publicUrl}/token-status-lists/${listId}`;

/** The compressed list (`lst`): bit `i` of byte `i >> 3` set for each revoked index. */
export function encodeTokenStatusList(length: number, revoked: Iterable<number>): string {
  const bytes = Buffer.alloc(length / 8);
  for (const i of revoked) bytes[i >> 3]! |= 1 << (i & 7);
  return deflateSync(bytes, { level: 9 }).toString('base64url');
}

/**
 * The list as served: signed once per version and kept in the list's row (any replica serves that
 * copy), signed again when a revocation moved the version or the copy is older than its `ttl`
 * (its `exp` must stay ahead of every verifier's cache). Undefined for an unknown id or a
 * Bitstring list.
 */
export async function signedTokenStatusList(
  deps: { db: Db; publicUrl: string; signer: () => Promise<JwtSigningKey>; now: Date; ttlSeconds: number },
  listId: string,
): Promise<{ jwt: string; version: number } | undefined> {
  const list = await deps.db.statusList.findUnique({ where: { id: listId } });
  if (list?.format !== 'token') return undefined;
  const kept = list.signed as { jwt?: string; iat?: number } | null;
  const iat = Math.floor(deps.now.getTime() / 1000);
  const ttl = Math.max(deps.ttlSeconds, 60);
  if (list.signedVersion === list.version && kept?.jwt && kept.iat !== undefined && iat - kept.iat < ttl) return { jwt: kept.jwt, version: list.version };
  // Read after the list's version, so the bits are at least as new as the version they are served under.
  const revoked = await deps.db.issuedCredential.findMany({ where: { statusListId: list.id, revokedAt: { not: null } }, select: { statusListIndex: true } });
  const uri = tokenStatusListUrl(deps.publicUrl, list.id);
  const signer = await deps.signer();
  const jwt = await new SignJWT({
    iss: deps.publicUrl,
    sub: uri,
    iat,
    // Twice what a verifier may cache it for: a copy kept the whole ttl is still valid.
    exp: iat + ttl * 2,
    ttl: deps.ttlSeconds,
    status_list: {
      bits: 1,
      lst: encodeTokenStatusList(
        list.length,
        revoked.map((r) => r.statusListIndex!),
      ),
    },
  })
    .setProtectedHeader({ alg: 'ES256', typ: TOKEN_STATUS_LIST_TYP, kid: signer.kid, x5c: signer.x5c })
    .sign(signer.privateKey);
  // Kept unless a newer version was kept meanwhile.
  await deps.db.statusList.updateMany({
    where: { id: list.id, OR: [{ signedVersion: null }, { signedVersion: { lte: list.version } }] },
    data: { signed: { jwt, iat }, signedVersion: list.version },
  });
  return { jwt, version: list.version };
}
