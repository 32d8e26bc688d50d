import { pairwiseUserId } from '@svc/secrets';
import type { WalletOwner } from './wallet-lookup.js';

type Derive = (secret: string, organizationId: string, userId: string) => string;

/**
 * The user id each organization is answered for a wallet's owner, kept beside the cached owner:
 * deriving it takes a cipher call and four conversions on every request, for an answer that only
 * changes with the organization asking. Only the last organization is kept per owner (a wallet
 * is mostly asked about by one); the entry goes with the owner when the wallet cache drops it.
 */
export class PairwiseIds {
  private readonly known = new WeakMap<WalletOwner, { organizationId: string; userId: string }>();

  constructor(
    private readonly secret: string,
    private readonly derive: Derive = pairwiseUserId,
  ) {}

  of(organizationId: string, owner: WalletOwner): string {
    const kept = this.known.get(owner);
    if (kept?.organizationId === organizationId) return kept.userId;
    const userId = this.derive(this.secret, organizationId, owner.userId);
    this.known.set(owner, { organizationId, userId });
    return userId;
  }
}
