// Guessing passwords in parallel: each attempt is reserved in the shared store before its password
// is checked, so parallel guesses get no more checks than sequential ones. Runs against Redis with
// REDIS_URL set and against the in-process store without it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { arrange, buildIdp, useIdp } from '../helpers.js';
import { fromOwnPage, signInPage, startAuthorization } from '../hosted-forms.js';

const suite = useIdp();
// Time stands still: no delay runs out while a test runs, however slow the machine.
const at = new Date();
let idp: ReturnType<typeof buildIdp>;
beforeAll(() => {
  idp = buildIdp({ TRUST_PROXY: 'true' }, { now: () => at });
});
afterAll(async () => {
  await idp.deps.close();
});

let sources = 0;
/** A source address no other test uses. */
const newSource = () => `203.0.113.${++sources}`;

const json = (source: string, email: string, password: string) =>
  request(idp.app).post('/auth/session').set('X-Forwarded-For', source).send({ email, password });

async function hostedForm(clientId: string) {
  const authorizationId = await startAuthorization(idp.app, clientId);
  const { cookie, csrf } = await signInPage(idp.app, authorizationId);
  return (source: string, email: string, password: string) =>
    request(idp.app)
      .post('/consent/sign-in')
      .set('X-Forwarded-For', source)
      .set('Cookie', cookie)
      .set(fromOwnPage(idp.deps.config.issuer))
      .type('form')
      .send({ authorization_id: authorizationId, csrf_token: csrf, email, password });
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('POST /auth/session under parallel guessing', () => {
  it('checks no more than the free attempts and one more when 25 wrong passwords for one account arrive at once, and refuses the rest with 429', async () => {
    const a = await arrange(suite.db);
    const source = newSource();
    const answers = await Promise.all(Array.from({ length: 25 }, () => json(source, a.user.email, 'a guess')));
    const statuses = answers.map((r) => r.status);
    // Three free and one more at most; fewer when the account's concurrent checks are all busy.
    expect(count(statuses, 401)).toBeGreaterThanOrEqual(1);
    expect(count(statuses, 401)).toBeLessThanOrEqual(4);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(25);
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.body.error).toBe('rate_limited');
    }
  });

  it('checks at most 21 guesses from one source spread over many accounts at once', async () => {
    const source = newSource();
    const answers = await Promise.all(Array.from({ length: 30 }, () => json(source, uniqueEmail('nobody'), 'a guess')));
    const statuses = answers.map((r) => r.status);
    expect(count(statuses, 401)).toBe(21);
    expect(count(statuses, 429)).toBe(9);
  });

  it('checks only a few passwords of one account at a time, whichever sources they come from', async () => {
    const a = await arrange(suite.db);
    const answers = await Promise.all(Array.from({ length: 16 }, () => json(newSource(), a.user.email, 'a guess')));
    const statuses = answers.map((r) => r.status);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(16);
    expect(count(statuses, 401)).toBeLessThan(16);
    expect(answers.filter((r) => r.status === 429).every((r) => Number(r.headers['retry-after']) >= 1)).toBe(true);
  });

  it('still never locks: a right password resets the account’s count from that source, and the owner elsewhere is never slowed', async () => {
    const a = await arrange(suite.db);
    const source = newSource();
    for (let i = 0; i < 3; i++) expect((await json(source, a.user.email, 'a guess')).status).toBe(401);
    expect((await json(source, a.user.email, a.user.password)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await json(source, a.user.email, 'a guess')).status).toBe(401);
    await Promise.all(Array.from({ length: 10 }, () => json(source, a.user.email, 'a guess')));
    expect((await json(newSource(), a.user.email, a.user.password)).status).toBe(200);
  });
});

describe('POST /consent/sign-in under parallel guessing', () => {
  it('goes through the same throttle: of 25 wrong passwords at once, no more than the free ones and one more are checked', async () => {
    const a = await arrange(suite.db);
    const post = await hostedForm(a.publicClient.client_id);
    const source = newSource();
    const answers = await Promise.all(Array.from({ length: 25 }, () => post(source, a.user.email, 'a guess')));
    const statuses = answers.map((r) => r.status);
    // Three free and one more at most; fewer when the account's concurrent checks are all busy.
    expect(count(statuses, 401)).toBeGreaterThanOrEqual(1);
    expect(count(statuses, 401)).toBeLessThanOrEqual(4);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(25);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('shares the count with POST /auth/session', async () => {
    const a = await arrange(suite.db);
    const post = await hostedForm(a.publicClient.client_id);
    const source = newSource();
    for (let i = 0; i < 3; i++) expect((await json(source, a.user.email, 'a guess')).status).toBe(401);
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => post(source, a.user.email, 'a guess')))).map((r) => r.status);
    expect(count(statuses, 401)).toBe(1);
    expect(count(statuses, 429)).toBe(9);
  });
});
