// Personal access tokens: expiring, bound to their maker's membership, refused by the other environment.
import { describe, expect, it } from '@jest/globals';
import { uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { buildIdp, SANDBOX_URL, useSandbox } from '../helpers.js';
import { as, developer } from './developers.js';

const sandbox = useSandbox();

describe('personal access tokens', () => {
  it('stop working once expired, or once their owner leaves the organization; a production token is refused by the sandbox, naming production', async () => {
    const dev = await developer(sandbox.idp.app);
    const expiring = await request(sandbox.idp.app)
      .post('/v2/developer/personal-access-tokens')
      .set(as(dev.session))
      .send({ name: 'short', expires_in_days: 1 });
    expect(expiring.body.expires_at).toEqual(expect.any(String));
    const later = buildIdp(
      // Its own Redis keys: what it counts two days ahead must not hold up this file's other requests.
      { SVC_ENVIRONMENT: 'sandbox', DATABASE_URL: sandbox.idp.deps.config.DATABASE_URL, PUBLIC_URL: SANDBOX_URL, REDIS_KEY_PREFIX: uniqueNamespace('later') },
      { now: () => new Date(Date.now() + 2 * 86_400_000) },
    );
    try {
      expect((await request(later.app).get('/v2/developer/organization').set(as(expiring.body.token))).status).toBe(401);
      expect((await request(later.app).get('/v2/developer/organization').set(as(dev.token))).status).toBe(200);
    } finally {
      await later.deps.close();
    }
    await sandbox.db.organizationMember.deleteMany({ where: { userId: dev.userId } });
    const gone = await request(sandbox.idp.app).get('/v2/developer/applications').set(as(dev.token));
    expect(gone.status).toBe(401);
    expect(gone.body.error_description).toBe('The owner of this personal access token is no longer a member of its organization');
    const open = buildIdp({ CONSOLE_SIGNUP: 'open' });
    try {
      const prod = await developer(open.app);
      const refused = await request(sandbox.idp.app).get('/v2/developer/applications').set(as(prod.token));
      expect(refused.status).toBe(401);
      expect(refused.body.error_description).toMatch(/^This personal access token belongs to production: send it to https:\/\/id\.example\.com/);
    } finally {
      await open.deps.close();
    }
  });
});
