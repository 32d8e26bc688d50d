import type { CoreDeps } from '@svc/runtime';
import type { Config } from '../config.js';
import { startApprovalSweep } from './approvals/approval-sweep.js';
import type { AuthorizationServerClient } from './approvals/authorization-server.js';
import { startOfferPurge } from './offers/offer-purge.js';

export interface WalletJobDeps extends Pick<CoreDeps, 'db' | 'store' | 'clock' | 'logger'> {
  config: Config;
  authorizationServer: AuthorizationServerClient | undefined;
}

/**
 * The wallet flow's background loops: spent offers purged on every replica and, when an identity
 * provider authorizes wallets, the reconciliation of their approvals with it. Started by the server
 * process only (never by createApp, so tests run none); returns the stop.
 */
export function startWalletJobs(deps: WalletJobDeps): () => void {
  const stopOfferPurge = startOfferPurge(deps.db, () => deps.clock.now(), deps.logger);
  const server = deps.config.authorizationServer;
  const stopApprovalSweep =
    server && deps.authorizationServer
      ? startApprovalSweep(
          {
            db: deps.db,
            cache: deps.store.cache,
            now: () => deps.clock.now(),
            logger: deps.logger,
            organizationId: server.organizationId,
            server: deps.authorizationServer,
          },
          deps.config.WALLET_APPROVAL_SWEEP_SECONDS,
        )
      : () => undefined;
  return () => {
    stopOfferPurge();
    stopApprovalSweep();
  };
}
