import type { CoreDeps } from '@svc/runtime';
import type { Config } from '../config.js';
import type { ApiTokenDeps } from '../http/require-token.js';
import type { IssuerCounters } from '../metrics.js';
import type { SigningPool } from '../vc/signing-pool.js';
import type { TrustedIssuers } from './trusted-issuers.js';

/** What verifying credentials and W3C presentations needs from the app. */
export interface VerificationDeps extends ApiTokenDeps, Pick<CoreDeps, 'db' | 'clock'> {
  config: Config;
  pool: SigningPool;
  trustedIssuers: TrustedIssuers;
  counters: IssuerCounters;
  /** The bytes of what this issuer serves (its credential types' metadata), for relatedResource digests. */
  ownResources: (url: string) => string | undefined;
}
