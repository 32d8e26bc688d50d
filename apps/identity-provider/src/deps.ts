import { dependencyCheck, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import type { Config } from './config.js';
import { SigningKeys } from './services/signing-keys.js';
import type { TokenContext } from './services/tokens.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
  signingKeys: SigningKeys;
  tokens: TokenContext;
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
    checks: [...coreChecks(core), dependencyCheck('signing_key', () => signingKeys.signer())],
  };
}
