import { dependencyCheck, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import type { Config } from './config.js';
import { SigningKeys } from './services/signing-keys.js';
import type { TokenContext } from './services/tokens.js';
import { clientRateLimit } from './services/client-rate-limit.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
  signingKeys: SigningKeys;
  tokens: TokenContext;
  limitClient: (clientId: string) => Promise<void>;
}

export function buildDeps(config: Config): AppDeps {
  const core = createCoreDeps('identity-provider', 'idp', config);
  const signingKeys = new SigningKeys(core.db);
  return {
    ...core,
    config,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    signingKeys,
    tokens: { db: core.db, cache: core.store.cache, keys: signingKeys, issuer: config.issuer, secret: config.IDP_SECRET, now: () => new Date() },
    limitClient: clientRateLimit(core.store.limiter, config.RATE_LIMIT_DEFAULT, config.RATE_LIMIT_UNIT, core.logger),
    checks: [...coreChecks(core), dependencyCheck('signing_key', () => signingKeys.signer())],
  };
}
