import type { TimestampBatch } from '@svc/db';
import type { CoreDeps } from '@svc/runtime';
import type { ClientAuthDeps } from '../clients/client-auth.js';
import type { AccessTokenGuardDeps } from '../access-token-guard/deps.js';
import type { IdpCounters } from '../metrics.js';
import type { PresetCache } from './preset-cache.js';

/** What the data endpoints (user info, presets, queries) and the client's user-token endpoint need from the app. */
export interface DataAccessDeps extends AccessTokenGuardDeps, ClientAuthDeps, Pick<CoreDeps, 'clock' | 'sql'> {
  presetCache: PresetCache;
  counters: IdpCounters;
  /** last_token_issued_at of client user-tokens, written once a second for all authorizations. */
  tokenStamps: TimestampBatch;
}
