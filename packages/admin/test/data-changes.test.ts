// What the operator's changes tell integrators through the webhook outbox, in their transaction:
// user.data_changed (which presets each authorized application may read changed) and
// authorization.revoked with reason operator.
import { afterAll, describe, expect, it } from '@jest/globals';
import { testDb, uniqueEmail } from '@svc/testkit';
import { cli } from './cli-harness.js';
import { addCredential, createClient, createOrg, createUser, revokeAuthorizationAsOperator, setPalmVerified, type AdminContext } from '../src/index.js';

const db = testDb();
const ctx: AdminContext = { db, now: () => new Date() };
afterAll(async () => {
  await db.$disconnect();
});

/** A user who authorized two applications of one organization: one may read identity:read, the other kyc:read too (and, given `details`, a wallet's credentials). */
async function arrange(details?: object[]) {
  const user = await createUser(ctx, { email: uniqueEmail('changes'), password: 'correct horse battery', palmVerified: true });
  const org = await createOrg(ctx, { name: 'Changes Org', ownerEmail: user.email });
  const authorize = async (scopes: string, withDetails?: object[]) => {
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
        ...(withDetails ? { authorizationDetails: withDetails } : {}),
      },
    });
    return { clientId: client.client_id, authorizationId: a.id };
  };
  return { user, org, identity: await authorize('openid identity:read'), kyc: await authorize('openid identity:read kyc:read', details) };
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

describe('a wallet’s approval: the credential issuer is told what ends its credentials', () => {
  const granted = ['age_over_sd_jwt', 'kyc_sd_jwt'].map((id) => ({ type: 'openid_credential', credential_configuration_id: id }));
  /** The credential issuer's client, in an organization of its own, as the identity provider names it. */
  async function issuer() {
    const owner = await createUser(ctx, { email: uniqueEmail('issuer-owner'), password: 'correct horse battery' });
    const org = await createOrg(ctx, { name: 'Issuer Org', ownerEmail: owner.email });
    const client = await createClient(ctx, { org: org.id, name: 'Credential issuer', redirectUris: ['https://issuer.example/cb'], scopes: 'openid' });
    return { org, walletCtx: { ...ctx, credentialIssuerClientId: client.client_id } };
  }
  const events = (organizationId: string) =>
    db.webhookEvent.findMany({ where: { organizationId }, orderBy: { occurredAt: 'asc' } }).then((rows) => rows.map((r) => ({ type: r.type, data: r.data })));

  it('wallet_approval.data_changed names only the credentials whose presets changed, to the issuer’s organization only', async () => {
    const { org: issuerOrg, walletCtx } = await issuer();
    const { user, org, kyc } = await arrange(granted);
    await addCredential(walletCtx, { email: user.email, source: 'kyc_provider', claims: JSON.stringify({ kyc_passed: true }) });
    expect(await events(issuerOrg.id)).toEqual([
      { type: 'wallet_approval.data_changed', data: { authorization_id: kyc.authorizationId, credential_configuration_ids: ['kyc_sd_jwt'] } },
    ]);
    expect((await events(org.id)).map((e) => e.type)).not.toContain('wallet_approval.data_changed');
    // Without the issuer's client named (a CLI run without CREDENTIAL_ISSUER_CLIENT_ID), only the application hears.
    await setPalmVerified(ctx, { email: user.email, verified: false });
    expect(await events(issuerOrg.id)).toHaveLength(1);
  });

  it('wallet_approval.revoked names every credential granted when the operator revokes the approval', async () => {
    const { org: issuerOrg, walletCtx } = await issuer();
    const { kyc, identity } = await arrange(granted);
    await revokeAuthorizationAsOperator(walletCtx, { id: kyc.authorizationId });
    expect(await events(issuerOrg.id)).toEqual([
      {
        type: 'wallet_approval.revoked',
        data: { authorization_id: kyc.authorizationId, credential_configuration_ids: ['age_over_sd_jwt', 'kyc_sd_jwt'], reason: 'operator' },
      },
    ]);
    // An approval that granted no credentials is not the issuer's business.
    await revokeAuthorizationAsOperator(walletCtx, { id: identity.authorizationId });
    expect(await events(issuerOrg.id)).toHaveLength(1);
  });
});
