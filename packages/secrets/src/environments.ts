/**
 * Production and the sandbox are two deployments of one codebase, each with its own database and
 * keys. Everything a sandbox makes that a developer holds (client ids and secrets, codes, tokens,
 * session tokens, API keys) starts with `sbx_`, as Stripe's test keys start with `sk_test_`: a
 * leaked sandbox secret is recognisable at a glance, and either environment can tell a caller who
 * sent it the other's credential where it belongs instead of a bare "invalid".
 */
export type Environment = 'production' | 'sandbox';

export const SANDBOX_MARK = 'sbx_';

/** The forms of everything this project hands out, after the sandbox mark if any. */
const OURS = /^(sbx_)?(svc_client_|svcs_|svccode_|svcrt_|svcsess_|svck_|svcpat_|svciat_|svcrat_|svcinv_)[0-9A-Za-z_]/;

/** `value` as made by `environment`. */
export function marked(environment: Environment, value: string): string {
  return environment === 'sandbox' ? SANDBOX_MARK + value : value;
}

/** Which environment made a value of one of our forms; undefined for anything else. */
export function environmentOf(value: string): Environment | undefined {
  const match = OURS.exec(value);
  if (!match) return undefined;
  return match[1] ? 'sandbox' : 'production';
}
