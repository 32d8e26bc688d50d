import { describe, expect, it } from '@jest/globals';
import { addMember } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { csrfField, fromOwnPage } from '../hosted-forms.js';
import { arrange, signIn, useIdp } from '../helpers.js';

// The console's pages are not operations of the API: they are driven on the bare app.
const suite = useIdp();
const COOKIE = '__Host-svc_session';

/** A member of the organization, signed in to the console: the cookie and the CSRF token its page carries. */
async function inConsole(app: ReturnType<typeof createApp>, email: string, password: string) {
  const cookie = `${COOKIE}=${await signIn(suite.idp.app, email, password)}`;
  const page = await request(app).get('/console').set('Cookie', cookie);
  expect(page.status).toBe(200);
  return { cookie, csrf: csrfField(page.text) };
}

const invite = (app: ReturnType<typeof createApp>, as: { cookie: string; csrf: string }) =>
  request(app)
    .post('/console/members')
    .set('Cookie', as.cookie)
    .set(fromOwnPage(suite.idp.deps.config.issuer))
    .type('form')
    .send({ csrf_token: as.csrf, email: uniqueEmail('invited'), role: 'developer' });

describe('POST /console/members', () => {
  it('invites for the owner only: another member sees the console again, saying only the owner may', async () => {
    const app = createApp(suite.idp.deps);
    const a = await arrange(suite.db);
    await addMember(a.ctx, { org: a.org.id, email: a.other.email, role: 'developer' });

    const refused = await invite(app, await inConsole(app, a.other.email, a.other.password));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only the organization owner may invite members');

    const invited = await invite(app, await inConsole(app, a.user.email, a.user.password));
    expect(invited.status).toBe(200);
    expect(invited.text).toContain('id="secret"');
  });
});
