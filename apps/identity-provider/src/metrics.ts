import type { Metrics } from '@svc/http';

/** The identity provider's own metrics, beside the request counters every service has. */
export function idpCounters(metrics: Metrics) {
  return {
    tokensIssued: metrics.counter('tokens_issued_total', 'Access tokens issued, by grant', ['grant']),
    tokensRevoked: metrics.counter('tokens_revoked_total', 'Tokens and authorizations revoked through /oauth/revoke, by subject', ['subject']),
    presetCache: metrics.counter('preset_cache_lookups_total', 'Preset cache lookups by outcome: hit ratio = hit / all', ['outcome']),
    grantCache: metrics.counter('grant_cache_lookups_total', 'Bearer grant lookups: hit, miss (read the database), bypass (listener not live)', ['outcome']),
  };
}

export type IdpCounters = ReturnType<typeof idpCounters>;
