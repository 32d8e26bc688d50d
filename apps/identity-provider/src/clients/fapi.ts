import type { Application } from './application.js';

/**
 * The FAPI 2.0 Security Profile (final), as a client put under it (`fapi_profile: "fapi2"`) is
 * held to it. Each rule names the section it comes from; docs/identity-provider.md has the table.
 */
export const isFapi = (app: Pick<Application, 'fapiProfile'>) => app.fapiProfile === 'fapi2';

/** §5.4.1: the algorithms a FAPI client may sign with (assertions, request objects, DPoP proofs): PS256, ES256, EdDSA, never RS256. */
export const FAPI_CLIENT_ALGORITHMS = ['PS256', 'ES256', 'EdDSA'];

/** §5.3.2.1 (5): authorization codes live at most 60 seconds. */
export const FAPI_CODE_TTL_SECONDS = 60;

/** The algorithms `app` may sign with: FAPI's, or `otherwise`. */
export const clientAlgorithms = (app: Pick<Application, 'fapiProfile'>, otherwise: string[]) => (isFapi(app) ? FAPI_CLIENT_ALGORITHMS : otherwise);
