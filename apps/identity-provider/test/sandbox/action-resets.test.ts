// The sandbox forgets an action's proofs on request, so that a test suite can prove the same
// action again with the same test users; production has no such call.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { useIdp, useSandbox } from '../helpers.js';
import { accessToken, as, organization, person, prove, registerAction } from '../actions/people.js';

const production = useIdp();
const sandbox = useSandbox();

describe('DELETE /v2/sandbox/actions/{action}/proofs', () => {
  it('forgets the counts of one action: the same person proves it again under the same nullifier', async () => {
    const { app } = sandbox.idp;
    const org = await organization(sandbox.db, app);
    expect((await registerAction(app, org.developer, { action: 'free-trial' })).status).toBe(201);
    expect((await registerAction(app, org.developer, { action: 'newsletter' })).status).toBe(201);
    const token = await accessToken(app, org.confidential, await person(org), 'openid');
    const first = await prove(app, token, 'free-trial');
    expect(first.status).toBe(201);
    expect((await prove(app, token, 'newsletter')).status).toBe(201);
    expect((await prove(app, token, 'free-trial')).status).toBe(409);

    expect((await request(app).delete('/v2/sandbox/actions/free-trial/proofs').set(as(org.developer))).status).toBe(204);
    const again = await prove(app, token, 'free-trial');
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ nullifier: first.body.nullifier, count: 1 });
    // Only that action's: the other still holds its proof.
    expect((await prove(app, token, 'newsletter')).status).toBe(409);
    expect((await request(app).delete('/v2/sandbox/actions/no-such-action/proofs').set(as(org.developer))).status).toBe(404);
  });

  it('is not there in production', async () => {
    const { app } = production.idp;
    const org = await organization(production.db, app);
    expect((await registerAction(app, org.developer, { action: 'free-trial' })).status).toBe(201);
    expect((await request(app).delete('/v2/sandbox/actions/free-trial/proofs').set(as(org.developer))).status).toBe(404);
  });
});
