import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { buildIdp } from '../helpers.js';
import { startSmtpInbox } from './smtp-inbox.js';

describe('where mail goes', () => {
  it('refuses to start where PUBLIC_URL is public and neither SMTP_URL nor MAIL_OUTBOX=local says where mail goes', () => {
    expect(() => buildIdp({ MAIL_OUTBOX: '' })).toThrow(/SMTP_URL: required where PUBLIC_URL \(https:\/\/id\.example\.com\) is not a loopback address/);
  });

  it('refuses an outbox beside SMTP: where mail is sent, none is kept', () => {
    expect(() => buildIdp({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(/MAIL_OUTBOX/);
  });

  it('keeps mail in the outbox on a loopback PUBLIC_URL (npm start), and sends it through SMTP_URL when set', () => {
    const local = buildIdp({ MAIL_OUTBOX: '', PUBLIC_URL: 'http://localhost:4999' });
    const smtp = buildIdp({ MAIL_OUTBOX: '', SMTP_URL: 'smtps://user:pw@smtp.example.com:465', MAIL_FROM: 'Acme ID <id@acme.example>' });
    try {
      expect(local.deps.config.mail).toEqual({ transport: 'outbox', anyPeer: false, from: '"localhost:4999" <no-reply@localhost>' });
      expect(local.deps.outbox).toBeDefined();
      expect(smtp.deps.config.mail).toEqual({ transport: 'smtp', url: 'smtps://user:pw@smtp.example.com:465', from: 'Acme ID <id@acme.example>' });
      expect(smtp.deps.outbox).toBeUndefined();
    } finally {
      void local.deps.close();
      void smtp.deps.close();
    }
  });
});

describe('SMTP_URL', () => {
  let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
  let idp: ReturnType<typeof buildIdp>;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    idp = buildIdp({ MAIL_OUTBOX: '', SMTP_URL: inbox.url, MAIL_FROM: 'Acme ID <id@acme.example>' });
  });
  afterAll(async () => {
    await idp.deps.close();
    await inbox.close();
  });

  it('sends through the SMTP server, from MAIL_FROM, and keeps no outbox page', async () => {
    const to = uniqueEmail('smtp');
    await idp.deps.mailer.send({ to, subject: 'Hello', text: `Follow https://id.example.com/x?token=${'a'.repeat(80)} within 30 minutes.` });
    const mail = await inbox.next(to);
    expect(mail).toMatchObject({ from: 'id@acme.example', to: [to], subject: 'Hello', links: [`https://id.example.com/x?token=${'a'.repeat(80)}`] });
    // The bare app: a path that does not exist here is no operation of its document either.
    expect((await request(createApp(idp.deps)).get('/dev/outbox')).status).toBe(404);
    expect((await request(createApp(idp.deps)).get('/dev/outbox.json')).status).toBe(404);
  });
});

describe('the local outbox', () => {
  let idp: ReturnType<typeof buildIdp>;
  beforeAll(() => {
    idp = buildIdp();
  });
  afterAll(() => idp.deps.close());

  it('shows what would have been sent, newest first, for one address as JSON with its links', async () => {
    const to = uniqueEmail('outbox');
    await idp.deps.mailer.send({ to, subject: 'First', text: 'Nothing to follow.' });
    await idp.deps.mailer.send({ to, subject: 'Second', text: 'Follow https://id.example.com/confirm?token=abc then sign in.' });
    await idp.deps.mailer.send({ to: uniqueEmail('someone-else'), subject: 'Not yours', text: '-' });
    const res = await request(idp.app).get('/dev/outbox.json').query({ to: to.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.items.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(res.body.items[0]).toMatchObject({ to, links: ['https://id.example.com/confirm?token=abc'] });
  });

  it('shows a page whose links can be followed and whose text is never markup', async () => {
    const to = uniqueEmail('page');
    await idp.deps.mailer.send({ to, subject: '<b>Hi</b>', text: 'Go to https://id.example.com/confirm?token=x&y=1 <script>alert(1)</script>' });
    // The page is not an operation of the API: the bare app.
    const res = await request(createApp(idp.deps)).get('/dev/outbox').query({ to });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('<a href="https://id.example.com/confirm?token=x&amp;y=1">');
    expect(res.text).toContain('&lt;b&gt;Hi&lt;/b&gt;');
    expect(res.text).not.toContain('<script>');
  });
});

describe('the outbox a loopback PUBLIC_URL implies', () => {
  // Another address of this machine, if it has one: a connection to it does not come from loopback.
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  let idp: ReturnType<typeof buildIdp>;
  let server: Server;
  beforeAll(async () => {
    idp = buildIdp({ MAIL_OUTBOX: '', PUBLIC_URL: 'http://localhost:4999' });
    server = createServer(createApp(idp.deps));
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await idp.deps.close();
  });

  it('answers this machine’s own connections only (npm start listens on every interface)', async () => {
    const { port } = server.address() as AddressInfo;
    expect((await fetch(`http://127.0.0.1:${port}/dev/outbox.json`)).status).toBe(200);
    if (outside) expect((await fetch(`http://${outside}:${port}/dev/outbox.json`)).status).toBe(404);
  });
});
