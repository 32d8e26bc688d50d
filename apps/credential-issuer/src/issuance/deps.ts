import type { CoreDeps } from '@svc/runtime';
import type { Config } from '../config.js';
import type { ApiTokenDeps } from '../http/require-token.js';
import type { IssuerKeys } from '../keys/issuer-keys.js';
import type { IssuerCounters } from '../metrics.js';
import type { SigningPool } from '../vc/signing-pool.js';

/** What issuing, deriving and the records of issued credentials need from the app. */
export interface IssuanceDeps extends ApiTokenDeps, Pick<CoreDeps, 'db' | 'sql' | 'clock' | 'reads'> {
  config: Config;
  issuerKeys: IssuerKeys;
  pool: SigningPool;
  counters: IssuerCounters;
  /** The bytes of what this issuer serves (its credential types' metadata), for relatedResource digests. */
  ownResources: (url: string) => string | undefined;
}
