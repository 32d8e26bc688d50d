// What the operator's changes tell integrators through the webhook outbox, in their transaction:
// user.data_changed (which presets each authorized application may read changed) and
// authorization.revoked with reason operator.
import { afterAll, describe, expect, it } from '@jest/globals';
import { testDb, uniqueEmail } from '@svc/testkit';
import { cli } from './cli-harness.js';
import { addCredential, createClient, createOrg, createUser, setPalmVerified, type AdminContext } from '../src/index.js';

const db = testDb();
const ctx: AdminContext = { db, now: () => new Date() };
afterAll(async () => {
  await db.$disconnect();
});

/** A user who authorized two applications of one organization: one may read identity:read, the other kyc:read too. */
async function arrange() {
  const user = await createUser(ctx, { email: uniqueEmail('changes'), password: 'correct horse battery', palmVerified: true });
  const org = await createOrg(ctx, { name: 'Changes Org', ownerEmail: user.email });
  const authorize = async (scopes: string) => {
    const client = await createClient(ctx, { org: org.id, name: scopes, redirectUris: ['https://app.example/cb'], scopes });
    const app = await db.application.findUniqueOrThrow({ where: { clientId: client.client_id } });
    const a = await db.authorization.create({
      data: {
        applicationId: app.id,
        userId: user.id,
        status: 'approved',
        redirectUri: 'https://app.example/cb',
        requestedScopes: scopes.split(' '),
        grantedScopes: scopes.split(' '),
        codeChallenge: 'x'.repeat(43),
        expiresAt: new Date(Date.now() + 600_000),
        approvedAt: new Date(),
      },
    });
    return { clientId: client.client_id, authorizationId: a.id };
  };
  return { user, org, identity: await authorize('openid identity:read'), kyc: await authorize('openid identity:read kyc:read') };
}

const told = (organizationId: string) =>
  db.webhookEvent.findMany({ where: { organizationId, type: 'user.data_changed' }, orderBy: { occurredAt: 'asc' } }).then((rows) => rows.map((r) => r.data));

describe('user.data_changed', () => {
  it('names the presets each application may read that changed, and tells an application that may read none of them nothing', async () => {
    const { user, org, identity, kyc } = await arrange();
    await addCredential(ctx, { email: user.email, source: 'kyc_provider', claims: JSON.stringify({ kyc_passed: true }) });
    expect(await told(org.id)).toEqual([{ authorization_id: kyc.authorizationId, client_id: kyc.clientId, presets: ['kyc_passed'] }]);
    await setPalmVerified(ctx, { email: user.email, verified: false });
    const after = await told(org.id);
    expect(after.slice(1)).toEqual(
      expect.arrayContaining([
        { authorization_id: identity.authorizationId, client_id: identity.clientId, presets: expect.arrayContaining(['palm_verified']) },
        { authorization_id: kyc.authorizationId, client_id: kyc.clientId, presets: expect.arrayContaining(['palm_verified']) },
      ]),
    );
    expect(JSON.stringify(after)).not.toContain(user.email);
  });

  it('tells nothing when no preset shows the change', async () => {
    const { user, org } = await arrange();
    await setPalmVerified(ctx, { email: user.email, verified: true });
    expect(await told(org.id)).toEqual([]);
  });
});

describe('authorization:revoke', () => {
  it('revokes an authorization and its refresh tokens as the operator, tells its organization once, and refuses what is no id', async () => {
    const { org, kyc } = await arrange();
    const run = await cli('authorization:revoke', '--id', kyc.authorizationId);
    expect(run.json).toEqual({ id: kyc.authorizationId, status: 'revoked', revoked_at: expect.any(String) });
    expect((await cli('authorization:revoke', '--id', kyc.authorizationId)).json).toEqual(run.json);
    expect((await db.authorization.findUniqueOrThrow({ where: { id: kyc.authorizationId } })).status).toBe('revoked');
    const told = await db.webhookEvent.findMany({ where: { organizationId: org.id, type: 'authorization.revoked' } });
    expect(told.map((e) => e.data)).toEqual([{ authorization_id: kyc.authorizationId, client_id: kyc.clientId, reason: 'operator' }]);
    expect((await cli('authorization:revoke', '--id', 'nope')).code).not.toBe(0);
  });
});
