import { errorResponses, type ApiSpec, type ResponseSpec } from '@svc/http';
import { ZErrorBody, ZOAuthError, ZPresetError } from '@svc/schemas';
import { z } from 'zod';

// The response shapes the identity provider's operations share (each capability's openapi.ts).

export const oauthErrors = (statuses: Record<number, string>) => errorResponses(statuses, ZOAuthError);
export const presetErrors = (statuses: Record<number, string>) => errorResponses(statuses, ZPresetError);
export const html = (description: string): ResponseSpec => ({ description, schema: z.string(), contentType: 'text/html' });
export const redirect = (description: string): ResponseSpec => ({ description, headers: { Location: 'Where the browser goes next' } });
export const session = [['sessionBearer'], ['sessionCookie']] as ApiSpec['operations'][number]['security'];
/** Refusals of the developer API: no or a bad session or personal access token, and on writes a bad body or CSRF token. */
export const developerRefused = (extra: Record<number, string> = {}) =>
  errorResponses({ 401: 'No developer session or personal access token, or an unknown, expired or revoked one', ...extra });
export const developerWriteRefused = (extra: Record<number, string> = {}) =>
  developerRefused({ 400: 'Invalid request: `details` names each field and why', 403: 'CSRF token missing (with the session cookie)', ...extra });

/** A developer: signed in to the console (session), or a script with a personal access token. */
export const developer = [['personalAccessToken'], ...session!] as ApiSpec['operations'][number]['security'];
export const dataErrors = presetErrors({
  401: 'E4041 expired token, E4042 invalid or revoked token, E4010 data window over, E4011 a stronger or more recent sign-in needed (step-up)',
});
export const rateLimited = errorResponses({ 429: 'Over the client’s rate limit, or its end user’s share of it (Retry-After says when to retry)' });
export const FORM = ['application/json', 'application/x-www-form-urlencoded'];
/** A refusal that a browser on the sign-in pages gets as a page in its language (routes/page-errors.ts). */
export const orPage = (description: string): ResponseSpec => ({
  description: `${description} (JSON, or a page for a browser)`,
  schema: ZErrorBody,
  alternatives: [{ contentType: 'text/html', schema: z.string() }],
});
export const unavailablePage = { 503: orPage('PostgreSQL or Redis unreachable: temporarily_unavailable, with Retry-After') };

/** The hosted sign-in and consent pages, and the session endpoints behind them. */
