import { type CredentialIssuerClient, SvcApiError } from '@svc/sdk';
import express, { type Router } from 'express';
import { checkedSession, requireCsrf } from './csrf.js';
import { PROOF_SCRIPT } from './proof-script.js';
import type { Session, Sessions } from './sessions.js';
import { askForAge, viewOf, type WalletProof } from './wallet-proof.js';

/**
 * A visitor proves their age with a wallet, signed in or not:
 *   POST /proof                     ask the credential issuer (form, CSRF); the page shows a QR code and a button
 *   GET  /proof/result              where the session's request stands (JSON; the page polls it)
 *   POST /proof/dc-api-response     what the browser's wallet returned, relayed to the issuer (JSON, CSRF)
 *   GET  /proof.js                  the page's script
 */
export function proofRouter(deps: { sessions: Sessions; client: CredentialIssuerClient; origin: string }): Router {
  const client = deps.client;
  const csrf = requireCsrf(deps.sessions);
  const router = express.Router();

  router.get('/proof.js', (_req, res) => void res.type('js').set('Cache-Control', 'public, max-age=300').send(PROOF_SCRIPT));

  router.post('/proof', csrf, async (_req, res) => {
    const session = checkedSession(res);
    try {
      session.proof = await askForAge(client, deps.origin);
    } catch (err) {
      session.notice = { kind: 'error', text: `No wallet request: ${describe(err)}` };
    }
    res.redirect(303, '/#proof');
  });

  router.get('/proof/result', async (req, res) => {
    try {
      const proof = await refreshProof(deps.client, deps.sessions.get(req, res));
      if (!proof) return void res.status(404).json({ error: 'No wallet request in this session: ask for one first' });
      res.json(proof.outcome ?? { status: 'pending' });
    } catch (err) {
      res.status(502).json({ error: `The credential issuer did not answer: ${describe(err)}` });
    }
  });

  router.post('/proof/dc-api-response', express.json({ limit: '256kb' }), csrf, async (req, res) => {
    const proof = checkedSession(res).proof;
    if (!proof || proof.outcome) return void res.status(409).json({ error: 'No wallet request is waiting in this session: ask for one first' });
    const data = (req.body as { data?: unknown }).data as { response?: unknown } | undefined;
    if (typeof data?.response !== 'string') return void res.status(400).json({ error: 'The wallet’s answer is not {response: <JWE>}' });
    try {
      // The origin the wallet bound its answer to must be this app's, as configured here: a page's word for it proves nothing.
      proof.outcome = viewOf(await client.relayDcApiResponse(proof.id, { response: { response: data.response }, origin: deps.origin }));
      res.json(proof.outcome);
    } catch (err) {
      res.status(502).json({ error: `The credential issuer refused it: ${describe(err)}` });
    }
  });

  return router;
}

/**
 * The session's request as the page shows it: while it is pending, its outcome is read from the
 * issuer (the QR code's wallet answers there), and kept once it is final.
 */
export async function refreshProof(client: CredentialIssuerClient, session: Session): Promise<WalletProof | undefined> {
  const proof = session.proof;
  if (!proof || proof.outcome) return proof;
  const view = viewOf(await client.presentationResult(proof.id));
  if (view.status !== 'pending') proof.outcome = view;
  return proof;
}

const describe = (err: unknown) => (err instanceof SvcApiError ? `${err.status} ${err.error}: ${err.description}` : (err as Error).message);
