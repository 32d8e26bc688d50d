/**
 * The local outbox, only where mail is kept rather than sent (no SMTP_URL, a local deployment):
 *   GET /dev/outbox        the mails, newest first, as a page with followable links
 *   GET /dev/outbox.json   the same as JSON (`?to=` one address), for scripts and tests
 */
import { handle, methodNotAllowed } from '@svc/http';
import { ZOutboxQuery } from '@svc/schemas';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { pageCsp } from '../views/pages.js';
import type { LocalOutbox } from './local-outbox.js';
import { OUTBOX_STYLE, renderOutbox } from './outbox-page.js';

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/;

/** This machine's own connections only (the socket's peer: no forwarded header can claim it). */
function fromThisMachine(req: Request, _res: Response, next: NextFunction) {
  next(LOOPBACK.test(req.socket.remoteAddress ?? '') ? undefined : 'router');
}

/** `anyPeer`: every peer may read it (MAIL_OUTBOX=local), not only this machine's. */
export function outboxRouter(outbox: LocalOutbox, { anyPeer }: { anyPeer: boolean }): Router {
  const router = Router();
  if (!anyPeer) router.use('/dev', fromThisMachine);
  router
    .route('/dev/outbox')
    .get(
      handle({ query: ZOutboxQuery }, async ({ query }, _req, res) => {
        res
          .status(200)
          .set({ 'Content-Security-Policy': pageCsp([], OUTBOX_STYLE), 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' })
          .type('html')
          .send(renderOutbox(await outbox.list(query.to), query.to));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/dev/outbox.json')
    .get(
      handle({ query: ZOutboxQuery }, async ({ query }, _req, res) => {
        res.set('Cache-Control', 'no-store').json({ items: await outbox.list(query.to) });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
