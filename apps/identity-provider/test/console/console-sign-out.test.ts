import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { csrfField, fromOwnPage } from '../hosted-forms.js';
import { arrange, exchangeWith, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';

// The console's pages are not operations of the API (the OpenAPI document has none of them), so
// they are driven on the bare app, not the contract-checked one. The provider may reach this
// machine (JWKS_URI_ALLOW_PRIVATE), where the test's back-channel logout receiver listens.
const suite = useIdp({ JWKS_URI_ALLOW_PRIVATE: 'true' });
const COOKIE = '__Host-svc_session';

let receiver: Server;
let receiverUrl: string;
const received: { path: string; body: string }[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url!, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const sessionAlive = async (session: string) =>
  (await request(suite.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${session}`)).status !== 401;

describe('POST /console/sign-out', () => {
  it('ends the session as /oauth/logout does: a client authorized in it that registered a backchannel_logout_uri is told', async () => {
    const consoleApp = createApp(suite.idp.deps);
    // A developer (the organization's owner) who also signed in to an app of theirs in this session.
    const a = await arrange(suite.db);
    const client = await createClient(a.ctx, {
      org: a.org.id,
      name: 'Listening App',
      redirectUris: [REDIRECT],
      scopes: 'openid identity:read',
      backchannelLogoutUri: `${receiverUrl}/console-sign-out`,
    });
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, client.client_id, session, { scope: 'openid identity:read' });
    const idToken = decodeJwt((await exchangeWith(suite.idp.app, client, { code, code_verifier: verifier })).body.id_token);

    const dashboard = await request(consoleApp).get('/console').set('Cookie', `${COOKIE}=${session}`);
    expect(dashboard.status).toBe(200);
    const res = await request(consoleApp)
      .post('/console/sign-out')
      .set('Cookie', `${COOKIE}=${session}`)
      .set(fromOwnPage(suite.idp.deps.config.issuer))
      .type('form')
      .send({ csrf_token: csrfField(dashboard.text) });

    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toContain(`${COOKIE}=;`);
    expect(await sessionAlive(session)).toBe(false);
    await suite.idp.deps.logout.settled();
    const delivered = received.filter((r) => r.path === '/console-sign-out');
    expect(delivered).toHaveLength(1);
    const token = decodeJwt(new URLSearchParams(delivered[0]!.body).get('logout_token')!);
    expect(token).toMatchObject({ aud: client.client_id, sub: idToken.sub, sid: idToken.sid });
  });

  it('without the session’s CSRF token ends nothing and tells nobody', async () => {
    const consoleApp = createApp(suite.idp.deps);
    const a = await arrange(suite.db);
    const client = await createClient(a.ctx, {
      org: a.org.id,
      name: 'Listening App',
      redirectUris: [REDIRECT],
      scopes: 'openid identity:read',
      backchannelLogoutUri: `${receiverUrl}/forged-sign-out`,
    });
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    await obtainCode(suite.idp.app, client.client_id, session, { scope: 'openid identity:read' });
    const res = await request(consoleApp)
      .post('/console/sign-out')
      .set('Cookie', `${COOKIE}=${session}`)
      .set(fromOwnPage(suite.idp.deps.config.issuer))
      .type('form')
      .send({ csrf_token: 'forged' });
    expect(res.status).toBe(303);
    expect(await sessionAlive(session)).toBe(true);
    await suite.idp.deps.logout.settled();
    expect(received.filter((r) => r.path === '/forged-sign-out')).toHaveLength(0);
  });
});
