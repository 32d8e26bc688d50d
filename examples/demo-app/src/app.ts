import { createPkce, IdentityClient, PresetApiError, randomState, SvcApiError } from '@svc/sdk';
import express, { type Express, type Request, type Response } from 'express';
import type { Config } from './config.js';
import { checkedSession, requireCsrf } from './csrf.js';
import { dashboardPage, signedOutPage, STYLE, type Dashboard, type ProofSection, type Result } from './pages.js';
import { proofRouter, refreshProof } from './proof-routes.js';
import { Sessions, type Session } from './sessions.js';
import { offerAgeCredential } from './wallet-offer.js';
import { proofClient } from './wallet-proof.js';
import { EventLog } from './webhooks.js';

const SCOPE = ['openid', 'identity:read', 'kyc:read'];
const PRESETS = ['age_over_18', 'nationality', 'country_of_residence', 'kyc_passed'];
const POLICY = {
  description: 'age ≥ 18 and identity check passed',
  policy: {
    allOf: [
      { claim: 'age', operator: '>=', value: 18 },
      { claim: 'kyc_passed', operator: '==', value: true },
    ],
  },
};

export interface DemoAppDeps {
  config: Config;
  /** For tests: the fetch the SDK uses. */
  fetch?: typeof fetch;
  /** The webhook events it receives (its secret set once the receiver is registered). */
  events?: EventLog;
}

const describe = (err: unknown) => (err instanceof SvcApiError ? `${err.status} ${err.error}: ${err.description ?? ''}`.trim() : (err as Error).message);

/** A relying party as an integrator would write one with the SDK: sign-in with PKCE, then read what the user shared. */
export function createApp({ config, fetch, events = new EventLog() }: DemoAppDeps): Express {
  const idp = new IdentityClient({ issuer: config.issuer, clientId: config.clientId, clientSecret: config.clientSecret, ...(fetch ? { fetch } : {}) });
  const sessions = new Sessions(config.redirectUri.startsWith('https:'));
  const csrf = requireCsrf(sessions);
  const verifier = config.credentialIssuer && proofClient(config.credentialIssuer, fetch);
  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.set({
      // One script, served from here (/proof.js), which talks only to this app: nothing inline, nothing from elsewhere.
      'Content-Security-Policy':
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    next();
  });
  // The receiver reads the body as sent: the signature covers the exact bytes.
  app.post('/webhooks', express.raw({ type: 'application/json', limit: '64kb' }), (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res.sendStatus(events.receive(body, req.headers) ? 204 : 400);
  });
  app.use(express.urlencoded({ extended: false, limit: '2kb' }));

  app.get('/app.css', (_req, res) => void res.type('css').set('Cache-Control', 'public, max-age=300').send(STYLE));
  app.get(['/health', '/ready'], (_req, res) => void res.json({ status: 'ok' }));

  if (verifier) app.use(proofRouter({ sessions, client: verifier, origin: config.origin }));

  app.get('/', async (req, res) => {
    const session = sessions.get(req, res);
    const notice = session.notice;
    delete session.notice;
    const proof = await proofSection(session);
    if (!session.tokens)
      return void res
        .type('html')
        .send(signedOutPage({ issuer: config.issuer, events: events.recent, ...(notice ? { notice } : {}), ...(proof ? { proof } : {}) }));
    if (session.walletOffer && Date.parse(session.walletOffer.expiresAt) <= Date.now()) delete session.walletOffer;
    res.type('html').send(
      dashboardPage({
        ...(await readEverything(session)),
        csrf: session.csrf,
        events: events.recent,
        ...(notice ? { notice } : {}),
        ...(config.credentialIssuer ? { wallet: { offer: session.walletOffer } } : {}),
        ...(proof ? { proof } : {}),
      }),
    );
  });

  app.get('/login', (req, res) => {
    const session = sessions.get(req, res);
    const pkce = createPkce();
    const state = randomState();
    session.pending = { state, verifier: pkce.verifier };
    res.redirect(303, idp.authorizationUrl({ redirectUri: config.redirectUri, scope: SCOPE, state, codeChallenge: pkce.challenge }));
  });

  app.get('/callback', async (req, res) => {
    const session = sessions.get(req, res);
    const pending = session.pending;
    delete session.pending;
    const params = new URL(req.originalUrl, 'http://callback.invalid').searchParams;
    const code = params.get('code');
    if (!pending && code && !params.get('error')) {
      // Most likely the authorize URL npm start printed: its code is for whoever holds that URL's verifier.
      session.notice = {
        kind: 'ok',
        text: `A code arrived that this app did not ask for (from the authorize URL npm start printed?). It is yours to exchange once, soon, with the code_verifier printed beside that URL: ${code}`,
      };
      return void res.redirect(303, '/');
    }
    try {
      if (!pending) throw new Error('This sign-in was not started here (or was already finished): start again.');
      const { code } = idp.parseCallback(new URL(req.originalUrl, 'http://callback.invalid').toString(), { state: pending.state });
      const tokens = await idp.exchangeCode({ code, redirectUri: config.redirectUri, codeVerifier: pending.verifier });
      session.tokens = {
        access: tokens.access_token,
        ...(tokens.refresh_token ? { refresh: tokens.refresh_token } : {}),
        scope: tokens.scope ?? SCOPE.join(' '),
        expiresAt: Date.now() + tokens.expires_in * 1000,
      };
      session.notice = { kind: 'ok', text: 'Signed in: this is what you agreed to share.' };
    } catch (err) {
      const denied = params.get('error') === 'access_denied';
      session.notice = {
        kind: 'error',
        text: denied ? 'You declined: the app got nothing. Sign in again whenever you like.' : `Sign-in failed: ${describe(err)}`,
      };
    }
    res.redirect(303, '/');
  });

  app.post('/revoke', csrf, async (_req, res) => {
    const session = checkedSession(res);
    if (!session.tokens) return void res.redirect(303, '/');
    const old = session.tokens;
    delete session.tokens;
    try {
      await idp.revoke({ token: old.refresh ?? old.access, cascade: true });
      // Show that it took: the identity provider now refuses the access token the app held.
      const after = await idp.userInfo(old.access).then(
        () => 'still accepted (unexpected)',
        (err: unknown) => `refused: ${describe(err)}`,
      );
      session.notice = { kind: 'ok', text: `Access revoked at the identity provider. The app's old access token is now ${after}.` };
    } catch (err) {
      session.notice = { kind: 'error', text: `Revocation failed: ${describe(err)}` };
    }
    res.redirect(303, '/');
  });

  // The age the person shared with this app, offered to their wallet (the offer is the app's: its API token).
  app.post('/wallet-offer', csrf, async (_req, res) => {
    const session = checkedSession(res);
    if (!session.tokens || !config.credentialIssuer) return void res.redirect(303, '/');
    try {
      const { results } = await withToken(session, (t) => idp.presets(t, ['age_over_18']));
      const age = results.find((r) => r.preset === 'age_over_18');
      if (typeof age?.value !== 'boolean' || age.status !== 'valid') throw new Error('your age_over_18 is not verified, so there is nothing to vouch for');
      session.walletOffer = await offerAgeCredential(config.credentialIssuer, age.value, fetch);
    } catch (err) {
      session.notice = { kind: 'error', text: `No wallet offer: ${describe(err)}` };
    }
    res.redirect(303, '/#wallet');
  });

  app.post('/sign-out', csrf, (_req, res) => {
    const session = checkedSession(res);
    delete session.tokens;
    session.notice = { kind: 'ok', text: 'Signed out of the demo app (the authorization stays: revoke it to end it).' };
    res.redirect(303, '/');
  });

  app.use((_req: Request, res: Response) => void res.status(404).type('text').send('Not found'));
  return app;

  /** The wallet section of a page, its request's outcome read once more (an issuer that does not answer leaves it pending). */
  async function proofSection(session: Session): Promise<ProofSection | undefined> {
    if (!verifier) return undefined;
    const current = await refreshProof(verifier, session).catch(() => session.proof);
    if (current && !current.outcome && Date.parse(current.expiresAt) <= Date.now()) current.outcome = { status: 'expired' };
    return { csrf: session.csrf, current };
  }

  /** A call with the session's access token, refreshed once when the identity provider says it expired. */
  async function withToken<T>(session: Session, use: (token: string) => Promise<T>): Promise<T> {
    const tokens = session.tokens!;
    try {
      return await use(tokens.access);
    } catch (err) {
      if (!(err instanceof PresetApiError && err.code === 'E4041' && tokens.refresh)) throw err;
      const next = await idp.refresh(tokens.refresh);
      session.tokens = {
        access: next.access_token,
        refresh: next.refresh_token ?? tokens.refresh,
        scope: next.scope ?? tokens.scope,
        expiresAt: Date.now() + next.expires_in * 1000,
      };
      return use(next.access_token);
    }
  }

  async function readEverything(session: Session): Promise<Omit<Dashboard, 'csrf'>> {
    const settle = async <T>(work: () => Promise<T>): Promise<Result<T>> => {
      try {
        return { ok: true, value: await work() };
      } catch (err) {
        return { ok: false, error: describe(err) };
      }
    };
    const userInfo = await settle(() => withToken(session, (t) => idp.userInfo(t)) as Promise<Record<string, unknown>>);
    const [presets, query, changes] = await Promise.all([
      settle(async () => {
        const { results, errors } = await withToken(session, (t) => idp.presets(t, PRESETS));
        return [
          ...results.map((r) => ({ name: r.preset, value: r.value, status: r.status })),
          ...errors.map((x) => ({ name: x.preset, error: `${x.error.error_code}: ${x.error.error_description}` })),
        ];
      }),
      settle(async () => {
        const answer = await withToken(session, (t) => idp.evaluate(t, { policy: POLICY.policy }));
        return { description: POLICY.description, answer: answer.type === 'predicate' ? (answer.passed ? 'yes' : 'no') : answer.data };
      }),
      settle(async () => {
        const list = await idp.authorizations({ updatedSince: new Date(Date.now() - 3_600_000).toISOString(), limit: 10 });
        return list.items.map((i) => ({ id: i.authorization_id, status: i.status, updated_at: i.updated_at }));
      }),
    ]);
    return {
      userInfo,
      presets,
      query,
      changes,
      token: { scope: session.tokens!.scope, expiresIn: Math.round((session.tokens!.expiresAt - Date.now()) / 1000) },
    };
  }
}
