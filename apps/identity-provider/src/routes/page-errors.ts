import type { ErrorRequestHandler } from 'express';
import { ValidationError } from '@svc/http';
import { messages, pickLocale } from '../views/locales/index.js';
import { pageCsp, renderError } from '../views/pages.js';
import { wantsHtml } from './request-kind.js';

const PAGES = /^\/(oauth\/authorize|consent)(\/|$)/;

/**
 * A browser that follows a broken sign-in link (a parameter missing or malformed) gets a page in
 * its language saying what to do, not the JSON an API caller gets; the field-by-field reason is
 * kept, folded away, for the app's developers. API callers and every other failure pass through.
 */
export const pageErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (!(err instanceof ValidationError) || !PAGES.test(req.path) || !wantsHtml(req)) return next(err);
  const lang = pickLocale(typeof req.query.locale === 'string' ? req.query.locale : undefined, req.headers['accept-language']);
  const detail = err.details.map((d) => `${d.field}: ${d.message}`).join('; ');
  res
    .status(400)
    .set('Content-Security-Policy', pageCsp())
    .type('html')
    .send(renderError(messages(lang).badLink, lang, detail));
};
