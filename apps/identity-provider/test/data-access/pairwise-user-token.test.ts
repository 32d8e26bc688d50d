import { describe, expect, it } from '@jest/globals';
import { createOrg } from '@svc/admin';
import { pairwiseUserId } from '@svc/secrets';
import { testPairwiseSecret } from '@svc/testkit';
import request from 'supertest';
import { arrange, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();

/** The user_id wallet-verify answers a key of `organizationId` (the same derivation and secret). */
const walletVerifyUserId = (organizationId: string, userId: string) => pairwiseUserId(testPairwiseSecret(), organizationId, userId);

const userToken = (client: { client_id: string; client_secret?: string | null }, userId: string) =>
  request(suite.idp.app).post('/oauth/client/user-token').send({ client_id: client.client_id, client_secret: client.client_secret, user_id: userId });

describe('POST /oauth/client/user-token with the organization’s user_id', () => {
  it('finds the user by the UUID wallet-verify answers the client’s organization', async () => {
    const a = await arrange(suite.db);
    const t = await issueTokens(suite.idp.app, a);
    const res = await userToken(a.confidential, walletVerifyUserId(a.org.id, a.user.id));
    expect(res.status).toBe(200);
    expect(res.body.authorization_id).toBe(t.authorizationId);
    // Also through `identifier`, which takes any of the names.
    const named = await request(suite.idp.app)
      .post('/oauth/client/user-token')
      .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, identifier: walletVerifyUserId(a.org.id, a.user.id) });
    expect(named.status).toBe(200);
  });

  it('does not resolve the UUID another organization knows the same user by', async () => {
    const a = await arrange(suite.db);
    await issueTokens(suite.idp.app, a);
    const otherOrg = await createOrg(a.ctx, { name: 'Other Org', ownerEmail: a.other.email });
    const refused = await userToken(a.confidential, walletVerifyUserId(otherOrg.id, a.user.id));
    expect(refused.status).toBe(404);
    const unknown = await userToken(a.confidential, walletVerifyUserId(a.org.id, crypto.randomUUID()));
    expect(unknown.status).toBe(404);
    expect({ ...refused.body, request_id: undefined }).toEqual({ ...unknown.body, request_id: undefined });
  });
});
