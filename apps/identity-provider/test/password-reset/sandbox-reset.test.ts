// A sandbox test user resets a password as any person does; under npm start the sandbox keeps its
// mail in the local outbox, and every link it makes is marked as the sandbox's.
import { describe, expect, it } from '@jest/globals';
import { createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { SANDBOX_URL, useSandbox } from '../helpers.js';

const sandbox = useSandbox();

describe('a password reset in the sandbox', () => {
  it('mails a test user a sandbox link to the outbox, and the new password works', async () => {
    const email = uniqueEmail('test-user');
    await createUser({ db: sandbox.db, now: () => new Date(), environment: 'sandbox' }, { email, password: 'the test user’s password' });
    const app = sandbox.idp.app;
    expect((await request(app).post('/auth/password-reset').send({ email })).status).toBe(202);
    await sandbox.idp.deps.mailLater.settled();
    const [mail] = (await request(app).get('/dev/outbox.json').query({ to: email })).body.items;
    expect(mail.subject).toBe('[Sandbox] Reset your password');
    expect(mail.text).toContain(`at ${new URL(SANDBOX_URL).host} (sandbox)`);
    const link = new URL(mail.links[0]);
    expect(link.origin).toBe(SANDBOX_URL);
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^sbx_svcpwr_/);
    expect((await request(app).post('/auth/password-reset/confirm').send({ token, password: 'a new sandbox password' })).status).toBe(200);
    expect((await request(app).post('/auth/session').send({ email, password: 'a new sandbox password' })).status).toBe(200);
  });
});
