/**
 * A console action: a form posted from a section of the console, after requireConsoleDeveloper.
 * Its work goes through the function the API uses, so the console can do nothing the API cannot;
 * a refusal the developer can fix shows the console again with what to correct.
 */
import { HttpError, ValidationError } from '@svc/http';
import type { ReplicaReads } from '@svc/runtime';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { Developer } from '../developer/developer-auth.js';
import { ownerOnly } from '../errors.js';
import type { Locale } from '../views/locales/locale.js';
import type { SessionUser } from '../sessions/sessions.js';
import { type Form, problemsOf } from './console-forms.js';
import type { ConsolePage } from './console-page.js';
import { renderSecret, type SecretPage } from './console-pages.js';

/** Back to a section of the console, or a secret shown once. */
export type Outcome =
  | { section: string }
  | { secret: SecretPage }
  /** On to another page (a try's consent), with a cookie that binds what was started to this browser. */
  | { redirect: string; setCookie?: { name: string; value: string; options: CookieOptions } };
/** Makes an action's handler from its work, which the signed-in developer does with the form. */
export type Action = (work: (developer: Developer, form: Form, req: Request) => Promise<Outcome>) => RequestHandler;

/** What a section of the console registers its actions with: the guard, the action, and the page's language. */
export interface ConsoleActions {
  signedIn: RequestHandler;
  /** After signedIn: what only the organization's owner may do (see requireConsoleOwner). */
  ownerOnly: (what: string) => RequestHandler;
  action: Action;
  lang: (req: Request) => Locale;
}

/** A signed-in developer of the console, and the session that signed them in. */
export interface Signed {
  session: SessionUser;
  developer: Developer;
}

/** The console again, with what to correct: status and problems. */
export type Dashboard = (req: Request, res: Response, signed: Signed, status?: number, problems?: string[]) => Promise<void>;

/** The signed-in developer and session requireConsoleDeveloper left. */
const signedOf = (res: Response): Signed => ({ session: res.locals.session!, developer: res.locals.developer! });

/**
 * After requireConsoleDeveloper: what only the organization's owner may do. Anyone else sees the
 * console again with the refusal, as with any refusal of an action.
 */
export function requireConsoleOwner(dashboard: Dashboard, what: string): RequestHandler {
  return async (req, res, next) => {
    if (res.locals.developer?.role === 'owner') return next();
    await dashboard(req, res, signedOf(res), 403, [ownerOnly(what).description]);
  };
}

/** `reads`: every action is a write, so the organization's next lists (the dashboard it returns to) read the primary. */
export function consoleAction(page: ConsolePage, dashboard: Dashboard, reads: Pick<ReplicaReads, 'wrote'>): Action {
  return (work) => async (req, res) => {
    const signed = signedOf(res);
    await reads.wrote(signed.developer.organizationId);
    try {
      const outcome = await work(signed.developer, (req.body ?? {}) as Form, req);
      if ('secret' in outcome) return page.send(res, 200, renderSecret(page.context(req), outcome.secret));
      if ('redirect' in outcome) {
        if (outcome.setCookie) res.cookie(outcome.setCookie.name, outcome.setCookie.value, outcome.setCookie.options);
        return res.redirect(303, outcome.redirect);
      }
      page.back(req, res, outcome.section);
    } catch (err) {
      if (err instanceof ValidationError) return dashboard(req, res, signed, 400, problemsOf(err));
      if (err instanceof HttpError && err.status < 500) return dashboard(req, res, signed, err.status, [err.description]);
      throw err;
    }
  };
}
