import { readPackageVersion, type ReadinessCheck } from '@svc/http';
import { coreChecks, createCoreDeps, type CoreDeps } from '@svc/runtime';
import type { Config } from './config.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  checks: ReadinessCheck[];
}

export function buildDeps(config: Config): AppDeps {
  const core = createCoreDeps('identity-provider', 'idp', config);
  return {
    ...core,
    config,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    checks: coreChecks(core),
  };
}
