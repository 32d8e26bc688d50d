import type { CoreDeps } from '@svc/runtime';
import type { WalletProviders } from '@svc/wallet-attestations';
import type { Config } from '../config.js';
import type { ApiTokenDeps } from '../http/require-token.js';
import type { IssuerKeys } from '../keys/issuer-keys.js';
import type { RequestEncryptionKey } from '../keys/request-encryption-key.js';
import type { IssuerCounters } from '../metrics.js';
import type { RecentStatusLists } from '../status-lists/foreign-status-lists.js';
import type { SigningPool } from '../vc/signing-pool.js';
import type { AuthorizationServerClient } from './approvals/authorization-server.js';
import type { WalletDpopProofs } from './dpop.js';

/** What the wallet endpoints (OpenID4VCI), offers and the identity provider's approval events need from the app. */
export interface Openid4vciDeps extends ApiTokenDeps, Pick<CoreDeps, 'db' | 'sql' | 'clock' | 'store' | 'logger'> {
  config: Config;
  issuerKeys: IssuerKeys;
  pool: SigningPool;
  counters: IssuerCounters;
  /** The identity provider wallets' approvals are asked of, when one is configured. */
  authorizationServer: AuthorizationServerClient | undefined;
  /** DPoP proofs at /token and /credential. */
  walletDpop: WalletDpopProofs;
  /** Whose wallet and key attestations are trusted (WALLET_PROVIDERS). */
  walletProviders: WalletProviders;
  /** Wallet providers' status lists, for their key attestations: fetched with the address checked, and kept a minute. */
  keyAttestationStatusLists: RecentStatusLists;
  /** The key wallets encrypt credential requests to. */
  requestEncryptionKey: RequestEncryptionKey;
}
