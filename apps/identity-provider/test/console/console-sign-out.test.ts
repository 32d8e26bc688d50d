import { describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { decodeJwt } from 'jose';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { csrfField, fromOwnPage } from '../hosted-forms.js';
import { arrange, exchangeWith, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';
import { useBackchannelReceiver } from '../logout/backchannel-receiver.js';

// The console's pages are not operations of the API (the OpenAPI document has none of them), so
// they are driven on the bare app, not the contract-checked one. The provider may reach this
// machine (JWKS_URI_ALLOW_PRIVATE), where the test's back-channel logout receiver listens.
const suite = useIdp({ JWKS_URI_ALLOW_PRIVATE: 'true' });
const COOKIE = '__Host-svc_session';

const receiver = useBackchannelReceiver();

/** The organization's owner, signed in to an app of theirs that listens for back-channel logout at `path`. */
async function ownerOfListeningApp(path: string) {
  const a = await arrange(suite.db);
  const client = await createClient(a.ctx, {
    org: a.org.id,
    name: 'Listening App',
    redirectUris: [REDIRECT],
    scopes: 'openid identity:read',
    backchannelLogoutUri: `${receiver.url()}${path}`,
  });
  const session = await signIn(suite.idp.app, a.user.email, a.user.password);
  const { code, verifier } = await obtainCode(suite.idp.app, client.client_id, session, { scope: 'openid identity:read' });
  const idToken = decodeJwt((await exchangeWith(suite.idp.app, client, { code, code_verifier: verifier })).body.id_token);
  return { client, session, idToken };
}

const signOut = (consoleApp: ReturnType<typeof createApp>, session: string, csrf: string) =>
  request(consoleApp)
    .post('/console/sign-out')
    .set('Cookie', `${COOKIE}=${session}`)
    .set(fromOwnPage(suite.idp.deps.config.issuer))
    .type('form')
    .send({ csrf_token: csrf });

const sessionAlive = async (session: string) =>
  (await request(suite.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${session}`)).status !== 401;

describe('POST /console/sign-out', () => {
  it('ends the session as /oauth/logout does: a client authorized in it that registered a backchannel_logout_uri is told', async () => {
    const consoleApp = createApp(suite.idp.deps);
    // A developer (the organization's owner) who also signed in to an app of theirs in this session.
    const { client, session, idToken } = await ownerOfListeningApp('/console-sign-out');
    const dashboard = await request(consoleApp).get('/console').set('Cookie', `${COOKIE}=${session}`);
    expect(dashboard.status).toBe(200);
    const res = await signOut(consoleApp, session, csrfField(dashboard.text));

    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toContain(`${COOKIE}=;`);
    expect(await sessionAlive(session)).toBe(false);
    await suite.idp.deps.logout.settled();
    const delivered = receiver.deliveredTo('/console-sign-out');
    expect(delivered).toHaveLength(1);
    const token = decodeJwt(new URLSearchParams(delivered[0]!.body).get('logout_token')!);
    expect(token).toMatchObject({ aud: client.client_id, sub: idToken.sub, sid: idToken.sid });
  });

  it('without the session’s CSRF token ends nothing and tells nobody', async () => {
    const consoleApp = createApp(suite.idp.deps);
    const { session } = await ownerOfListeningApp('/forged-sign-out');
    const res = await signOut(consoleApp, session, 'forged');
    expect(res.status).toBe(303);
    expect(await sessionAlive(session)).toBe(true);
    await suite.idp.deps.logout.settled();
    expect(receiver.deliveredTo('/forged-sign-out')).toEqual([]);
  });
});
