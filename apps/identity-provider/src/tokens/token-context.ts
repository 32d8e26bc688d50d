import type { Db, Sql } from '@svc/db';
import type { Cache } from '@svc/kv';
import type { Clock } from '@svc/runtime';
import type { SigningKeys } from '../keys/signing-keys.js';
import type { GrantCache } from './grant-cache.js';
import type { RefreshRotations } from './refresh/refresh-tokens.js';
import type { VerifiedTokens } from './verified-tokens.js';
import type { EnvironmentGuard } from '../environment/environment.js';

/** What issuing, verifying and revoking tokens work with (built once, in deps.ts). */
export interface TokenContext {
  db: Db;
  sql: Sql;
  /** Refresh token rotations, grouped into one commit under load. */
  rotations: RefreshRotations;
  cache: Cache;
  keys: SigningKeys;
  issuer: string;
  /** The `aud` of every access token: this service's data API (RFC 9068 §3), checked on the way in. */
  resource: string;
  secret: string;
  clock: Clock;
  verified: VerifiedTokens;
  grants: GrantCache;
  environment: EnvironmentGuard;
  /** The credential issuer's client (CREDENTIAL_ISSUER_CLIENT_ID): told when an approval that granted its credentials is revoked. */
  credentialIssuerClientId?: string | undefined;
}
