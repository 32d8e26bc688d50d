import type { CheckDetails, ReadinessCheck } from './health.js';

/** A readiness check that passes when `ping` resolves. */
export function dependencyCheck(name: string, ping: () => Promise<unknown>, details: CheckDetails = {}): ReadinessCheck {
  return {
    name,
    run: async () => {
      await ping();
      return { ok: true, details };
    },
  };
}
