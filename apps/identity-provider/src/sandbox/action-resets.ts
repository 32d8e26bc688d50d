import { actionOf } from '../actions/actions.js';
import type { SandboxDeps } from './deps.js';

/**
 * Every proof of one of the organization's actions forgotten, so a test can prove it again with
 * the same test users (their nullifiers stay the same: only the counts go). Sandbox only.
 */
export async function resetActionProofs(deps: SandboxDeps, organizationId: string, name: string): Promise<void> {
  const action = await actionOf(deps, organizationId, name);
  await deps.db.actionProof.deleteMany({ where: { actionId: action.id } });
}
