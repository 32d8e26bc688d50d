import type { ErrorRequestHandler } from 'express';
import { HttpError, type Logger, type OutageClassifier, RateLimitedError, ServiceUnavailableError, ValidationError } from '@svc/http';
import { pickLocale } from '../views/locales/locale.js';
import type { PageTexts } from '../views/locales/page-texts.js';
import { pageTexts } from '../views/locales/registry.js';
import { pageCsp, type Provider, renderError } from '../views/pages.js';
import { wantsHtml } from './request-kind.js';

const PAGES = /^\/(oauth\/authorize|consent|password-reset)(\/|$)/;

interface Page {
  status: number;
  text: 'badLink' | 'slowDown' | 'unavailable';
  headers: Record<string, string>;
  detail?: string;
}

/**
 * A browser on the sign-in pages gets a page in its language saying what happened and what to do,
 * not the JSON an API caller gets: for a broken sign-in link (a parameter missing or malformed;
 * the field-by-field reason kept, folded away, for the app's developers), for too many requests
 * from one place, and while PostgreSQL or Redis is unreachable. API callers and every other
 * failure pass through to the JSON error handler.
 */
export function pageErrors(isOutage: OutageClassifier, provider: Provider): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent || !PAGES.test(req.path) || !wantsHtml(req)) return next(err);
    const page = pageFor(err, isOutage);
    if (!page) return next(err);
    if (page.status === 503) (req as { log?: Logger }).log?.warn({ err: (err as Error).message }, 'dependency unavailable');
    const lang = pickLocale(typeof req.query.locale === 'string' ? req.query.locale : undefined, req.headers['accept-language']);
    const t: PageTexts = pageTexts(lang);
    res
      .status(page.status)
      .set(page.headers)
      .set('Content-Security-Policy', pageCsp())
      .type('html')
      .send(renderError(t[page.text], provider, lang, page.detail));
  };
}

function pageFor(err: unknown, isOutage: OutageClassifier): Page | undefined {
  if (err instanceof ValidationError)
    return { status: 400, text: 'badLink', headers: {}, detail: err.details.map((d) => `${d.field}: ${d.message}`).join('; ') };
  if (err instanceof RateLimitedError) return { status: 429, text: 'slowDown', headers: err.headers };
  if (err instanceof ServiceUnavailableError) return { status: 503, text: 'unavailable', headers: err.headers };
  if (!(err instanceof HttpError) && isOutage(err)) return { status: 503, text: 'unavailable', headers: { 'Retry-After': '5' } };
  return undefined;
}
