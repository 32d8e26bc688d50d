import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { IssuerKeys } from '../keys/issuer-keys.js';

/** Why an issuer is trusted: it is this service, the caller named it, or the operator did. */
export type Trust = 'this issuer' | 'options.trustedIssuers' | 'VERIFY_TRUSTED_ISSUERS';

/**
 * Whose credentials verify. A proof only says who signed; a verifier that took any signer's word
 * would accept self-issued forgeries ("is_human: true" under anyone's did:key). This service's
 * own DIDs (the current key and every key rotated out, so what they signed keeps verifying) are
 * trusted; any other issuer only when the request (`options.trustedIssuers`) or the deployment
 * (`VERIFY_TRUSTED_ISSUERS`) names it.
 */
export class TrustedIssuers {
  private own: { dids: Set<string>; at: number } | undefined;

  constructor(
    private readonly db: Db,
    private readonly keys: IssuerKeys,
    private readonly configured: readonly string[],
    private readonly clock: Clock,
    private readonly refreshMs = 10_000,
  ) {}

  async trusts(issuer: string, named: readonly string[] = []): Promise<Trust | undefined> {
    if ((await this.ownDids(false)).has(issuer)) return 'this issuer';
    if (named.includes(issuer)) return 'options.trustedIssuers';
    if (this.configured.includes(issuer)) return 'VERIFY_TRUSTED_ISSUERS';
    // A key another replica rotated in since this one last looked.
    return (await this.ownDids(true)).has(issuer) ? 'this issuer' : undefined;
  }

  /** This service's DIDs; re-read when `fresh`, so a key another replica just rotated in is known at once. */
  private async ownDids(fresh: boolean): Promise<Set<string>> {
    const now = this.clock.now().getTime();
    if (!fresh && this.own && now - this.own.at < this.refreshMs) return this.own.dids;
    const rows = await this.db.signingKey.findMany({ where: { service: 'credential-issuer', algorithm: 'Bls12381G2' }, select: { publicKey: true } });
    const dids = new Set(rows.map((r) => `did:key:${(r.publicKey as { publicKeyMultibase: string }).publicKeyMultibase}`));
    dids.add((await this.keys.current()).controller);
    this.own = { dids, at: now };
    return dids;
  }
}
