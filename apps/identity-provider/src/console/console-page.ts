import type { Request, Response } from 'express';
import type { SandboxDeps } from '../sandbox/deps.js';
import { pickLocale } from '../views/locales/locale.js';
import { passkeyScriptSource } from '../passkeys/page-script.js';
import { pageCsp } from '../views/pages.js';
import { MOVED_FLAG } from './announced-address.js';
import { CONSOLE_STYLE, type ConsoleContext } from './console-pages.js';

/** What every console answer is made with. */
export interface ConsolePage {
  /** The page's language, environment and provider, from the request. */
  context(req: Request): ConsoleContext;
  /**
   * An HTML answer with the console's headers: its style allowed, no referrer to other sites, never
   * cached; `passkeys`: the page runs the passkey script (the sign-in page), and no other.
   */
  send(res: Response, status: number, html: string, options?: { passkeys?: boolean }): void;
  /** Back to the console (303), at a section. */
  back(req: Request, res: Response, section?: string): void;
}

export function consolePage(deps: Pick<SandboxDeps, 'config' | 'environment'>): ConsolePage {
  const { issuer } = deps.config;
  const context = (req: Request): ConsoleContext => ({
    lang: pickLocale(typeof req.query.lang === 'string' ? req.query.lang : undefined, req.headers['accept-language']),
    environment: deps.environment.name,
    otherBaseUrl: deps.environment.baseUrl(deps.environment.sandbox ? 'production' : 'sandbox'),
    provider: deps.config.provider.name ?? deps.config.provider.host,
    movedTo: req.query[MOVED_FLAG] === 'moved' ? new URL(issuer).origin : undefined,
  });
  return {
    context,
    send: (res, status, html, options = {}) => {
      const script = options.passkeys ? passkeyScriptSource(issuer) : undefined;
      res
        .status(status)
        .set({ 'Content-Security-Policy': pageCsp([], CONSOLE_STYLE, script), 'Referrer-Policy': 'same-origin', 'Cache-Control': 'no-store' })
        .type('html')
        .send(html);
    },
    back: (req, res, section = '') => res.redirect(303, `/console?lang=${context(req).lang}${section ? `#${section}` : ''}`),
  };
}
