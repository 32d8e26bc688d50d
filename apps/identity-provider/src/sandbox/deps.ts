import type { CoreDeps } from '@svc/runtime';
import type { DeveloperDeps } from '../developer/deps.js';
import type { TokenContext } from '../tokens/token-context.js';

/** What the sandbox's test data needs: the developer's view of an organization, and tokens to sign. */
export interface SandboxDeps extends DeveloperDeps, Pick<CoreDeps, 'store'> {
  tokens: TokenContext;
}
