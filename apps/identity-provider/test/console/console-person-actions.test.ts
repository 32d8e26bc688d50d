// The console's section of actions counted per person: each form does what /v2/developer/actions
// (or the sandbox's reset) does, through the same functions, and shows what was counted.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { cookieName } from '../../src/sessions/session-cookie.js';
import { accessToken, type Arranged, as, organization, person, prove, registerAction } from '../actions/people.js';
import { csrfField, fromOwnPage } from '../hosted-forms.js';
import { useIdp, useSandbox } from '../helpers.js';

const production = useIdp();
const sandbox = useSandbox();

type Suite = typeof production;
type Org = Arranged & { developer: string };

/** The organization's developer in the console: posts a form from the console's own page. */
async function consoleOf(suite: Suite, org: Org) {
  const app = createApp(suite.idp.deps);
  const cookie = `${cookieName(suite.idp.deps, 'svc_session')}=${org.developer}`;
  const page = async (lang = 'en') => {
    const res = await request(app).get('/console').query({ lang }).set('Cookie', cookie);
    expect(res.status).toBe(200);
    return res.text;
  };
  const csrf = csrfField(await page());
  const post = (path: string, form: Record<string, string> = {}) =>
    request(app)
      .post(path)
      .set('Cookie', cookie)
      .set(fromOwnPage(suite.idp.deps.config.issuer))
      .type('form')
      .send({ csrf_token: csrf, ...form });
  return { page, post };
}

const listed = async (suite: Suite, org: Org) =>
  (await request(suite.idp.app).get('/v2/developer/actions').set(as(org.developer))).body.items as Record<string, unknown>[];

/** The section of the console's page: from its heading to the next section. */
const section = (html: string) => html.slice(html.indexOf('<section id="actions">'), html.indexOf('</section>', html.indexOf('<section id="actions">')));

describe('the console: one person, one action', () => {
  it('adds an action as the API would, and shows its limit', async () => {
    const org = await organization(production.db, production.idp.app);
    const { page, post } = await consoleOf(production, org);
    expect(section(await page())).toContain('No actions yet.');

    const added = await post('/console/actions', {
      action: 'vote-2026',
      description: 'Board election',
      max_per_person: '1',
      period: 'never',
      requires_palm_verification: 'true',
    });
    expect(added.status).toBe(303);
    expect(added.headers.location).toBe('/console?lang=en#actions');
    expect(await listed(production, org)).toEqual([
      expect.objectContaining({ action: 'vote-2026', description: 'Board election', max_per_person: 1, period: 'never', requires_palm_verification: true }),
    ]);
    const shown = section(await page());
    expect(shown).toContain('<code>vote-2026</code>');
    expect(shown).toContain('once per person · starts anew: never · palm-verified people only');
    expect(shown).toContain('0 proofs counted');

    // An unticked box is absent from a form: the action is then open to anyone verified.
    await post('/console/actions', { action: 'free-trial', max_per_person: '2', period: 'month' });
    expect((await listed(production, org))[1]).toMatchObject({
      action: 'free-trial',
      max_per_person: 2,
      period: 'month',
      requires_palm_verification: false,
      description: null,
    });
    expect(section(await page())).toContain('2 times per person · starts anew: each month (UTC)');
  });

  it('says what to correct and adds nothing', async () => {
    const org = await organization(production.db, production.idp.app);
    const { page, post } = await consoleOf(production, org);
    const refused = await post('/console/actions', { action: 'Vote 2026', max_per_person: '0', period: 'hourly' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('action: must be 1 to 64 of a-z 0-9 _ . -');
    expect(refused.text).toContain('max_per_person: must be at least 1');
    expect(refused.text).toContain('period: must be one of: day, week, month, never');
    expect(await listed(production, org)).toEqual([]);

    await post('/console/actions', { action: 'vote', max_per_person: '1', period: 'never' });
    const twice = await post('/console/actions', { action: 'vote', max_per_person: '1', period: 'never' });
    expect(twice.status).toBe(409);
    expect(section(await page())).toContain('<code>vote</code>');
    expect(await listed(production, org)).toHaveLength(1);
  });

  it('changes and deletes an action, and counts its proofs', async () => {
    const org = await organization(production.db, production.idp.app);
    const { app } = production.idp;
    const { page, post } = await consoleOf(production, org);
    await post('/console/actions', { action: 'claim', description: 'Airdrop', max_per_person: '1', period: 'never', requires_palm_verification: 'true' });

    const changed = await post('/console/actions/claim', { description: '', max_per_person: '3', period: 'week' });
    expect(changed.status).toBe(303);
    expect((await listed(production, org))[0]).toMatchObject({
      action: 'claim',
      description: null,
      max_per_person: 3,
      period: 'week',
      requires_palm_verification: false,
    });

    const token = await accessToken(app, org.confidential, await person(org), 'openid');
    expect((await prove(app, token, 'claim')).status).toBe(201);
    expect((await prove(app, token, 'claim')).status).toBe(201);
    expect((await prove(app, await accessToken(app, org.confidential, await person(org), 'openid'), 'claim')).status).toBe(201);
    expect(section(await page())).toContain('3 proofs counted');

    // Production keeps its counts: the reset is the sandbox's.
    const reset = await post('/console/actions/claim/reset');
    expect(reset.status).toBe(404);
    expect(section(await page())).toContain('3 proofs counted');

    expect((await post('/console/actions/claim/delete')).status).toBe(303);
    expect(await listed(production, org)).toEqual([]);
    expect(section(await page())).toContain('No actions yet.');
  });

  it('reaches only its own organization’s actions', async () => {
    const org = await organization(production.db, production.idp.app);
    const theirs = await organization(production.db, production.idp.app);
    expect((await registerAction(production.idp.app, theirs.developer, { action: 'vote' })).status).toBe(201);
    const { post } = await consoleOf(production, org);
    expect((await post('/console/actions/vote', { max_per_person: '9', period: 'day' })).status).toBe(404);
    expect((await post('/console/actions/vote/delete')).status).toBe(404);
    // A name no action could have is not looked up.
    expect((await post('/console/actions/..%2Fapplications/delete')).status).toBe(404);
    expect((await listed(production, theirs))[0]).toMatchObject({ action: 'vote', max_per_person: 1 });
  });

  it('refuses a form without the session’s CSRF token', async () => {
    const org = await organization(production.db, production.idp.app);
    const { post } = await consoleOf(production, org);
    const forged = await post('/console/actions', { csrf_token: 'forged', action: 'vote', max_per_person: '1', period: 'never' });
    expect(forged.status).toBe(403);
    expect(await listed(production, org)).toEqual([]);
  });

  it('forgets an action’s counts in the sandbox, so test users can prove it again', async () => {
    const { app } = sandbox.idp;
    const org = await organization(sandbox.db, app);
    const { page, post } = await consoleOf(sandbox, org);
    expect((await post('/console/actions', { action: 'free-trial', max_per_person: '1', period: 'never' })).status).toBe(303);
    const token = await accessToken(app, org.confidential, await person(org), 'openid');
    expect((await prove(app, token, 'free-trial')).status).toBe(201);
    expect((await prove(app, token, 'free-trial')).status).toBe(409);
    expect(section(await page())).toContain('1 proof counted');

    expect((await post('/console/actions/free-trial/reset')).status).toBe(303);
    expect(section(await page())).toContain('0 proofs counted');
    expect((await prove(app, token, 'free-trial')).status).toBe(201);
  });

  it('speaks German and French', async () => {
    const org = await organization(production.db, production.idp.app);
    const { page, post } = await consoleOf(production, org);
    await post('/console/actions', { action: 'vote', max_per_person: '2', period: 'day', requires_palm_verification: 'true' });
    const de = section(await page('de'));
    expect(de).toContain('Eine Person, eine Aktion');
    expect(de).toContain('2-mal pro Person · beginnt neu: jeden Tag (UTC) · nur handflächenverifizierte Personen');
    expect(de).toContain('Aktion hinzufügen');
    const fr = section(await page('fr'));
    expect(fr).toContain('Une personne, une action');
    expect(fr).toContain('2 fois par personne · repart à zéro : chaque jour (UTC) · personnes vérifiées par la paume seulement');
    expect(fr).toContain('0 preuve comptée');
  });
});
