import type { Counter } from '@svc/http';
import type { CoreDeps } from '@svc/runtime';

/** The credential issuer's own counters, beside the HTTP ones every service has. */
export interface IssuerCounters {
  issued: Counter<'request'>;
  revoked: Counter<never>;
  verified: Counter<'verified'>;
}

export function issuerCounters(metrics: CoreDeps['metrics']): IssuerCounters {
  return {
    issued: metrics.counter('credentials_issued_total', 'Credentials issued, by request shape (spec or vc_api)', ['request']),
    revoked: metrics.counter('credentials_revoked_total', 'Credentials newly revoked', []),
    verified: metrics.counter('credentials_verified_total', 'Verifications, by verdict', ['verified']),
  };
}
