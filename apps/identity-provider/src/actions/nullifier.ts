import { createHmac } from 'node:crypto';
import type { ActionPeriod } from '@svc/schemas';

/**
 * When the current period began, as a label that names it: a person's count starts anew with each
 * one. UTC, so every replica and every reader agrees where a day, an ISO week (from Monday) or a
 * month ends.
 */
export function periodOf(period: ActionPeriod, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  if (period === 'day') return day;
  if (period === 'month') return day.slice(0, 7);
  if (period === 'never') return 'never';
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7)));
  return `week-of-${monday.toISOString().slice(0, 10)}`;
}

export interface NullifierInput {
  organizationId: string;
  action: string;
  /** The person's internal id: never leaves this service, and the nullifier cannot be turned back into it. */
  userId: string;
  period: string;
}

/**
 * The person's nullifier for one action in one period: an HMAC under the deployment's own key, so
 * it is stable for (organization, action, person, period), unlinkable across actions and
 * organizations, and neither the `sub` nor computable from it (both are keyed hashes of the user id
 * under independent keys).
 */
export function nullifierOf(secret: string, input: NullifierInput): string {
  const mac = createHmac('sha256', secret).update(['action-nullifier', input.organizationId, input.action, input.userId, input.period].join('\u0000'));
  return `nul_${mac.digest('base64url')}`;
}
