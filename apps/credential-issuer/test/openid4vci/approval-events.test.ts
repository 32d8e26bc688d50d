import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Db } from '@svc/db';
import { testDatabaseUrl, testDb, testSigningKeyKek } from '@svc/testkit';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { endApprovalCredentials, endedMeanwhile } from '../../src/openid4vci/approvals/approval-events.js';
import { sweepApprovals } from '../../src/openid4vci/approvals/approval-sweep.js';
import { arrangeOrg, buildIssuer } from '../helpers.js';

// The identity provider's wallet_approval.revoked at POST /authorization-server/events: signed as
// Standard Webhooks sign (the specification's own library signs here), checked over the bytes as
// sent, and acted on by revoking what was issued on the approval. The whole path, from a person's
// revocation at the identity provider to the status list a verifier reads, is in
// tests/platform/test/wallet-authorization-code.test.ts.
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
let db: Db;
let issuer: ReturnType<typeof buildIssuer>;
let organizationId: string;

beforeAll(async () => {
  db = testDb();
  organizationId = (await arrangeOrg(db)).org.id;
  issuer = buildIssuer({
    AUTHORIZATION_SERVER_URL: 'http://127.0.0.1:9',
    AUTHORIZATION_SERVER_CLIENT_ID: 'idp_issuer_client',
    AUTHORIZATION_SERVER_CLIENT_SECRET: 'not used here',
    WALLET_ORGANIZATION_ID: organizationId,
    AUTHORIZATION_SERVER_WEBHOOK_SECRET: SECRET,
  });
});
afterAll(async () => {
  await issuer?.deps.close();
  await db?.$disconnect();
});

/** A credential recorded on `authorizationId`'s approval, as issuance records one. */
async function issuedOn(authorizationId: string, configurationId = 'age_over_sd_jwt') {
  const id = randomUUID();
  await db.issuedCredential.create({
    data: {
      id,
      credentialId: `urn:uuid:${id}`,
      organizationId,
      subjectAddress: '',
      issuerDid: 'http://127.0.0.1',
      verificationMethod: 'k1',
      claimNames: ['age_over_18'],
      validFrom: new Date(),
      format: 'dc+sd-jwt',
      approval: `${authorizationId}#${configurationId}`,
    },
  });
  return id;
}
const statusOf = async (id: string) => (await db.issuedCredential.findUniqueOrThrow({ where: { id } })).status;

function signed(event: object, options: { secret?: string; at?: Date; id?: string } = {}) {
  const body = JSON.stringify(event);
  const id = options.id ?? `msg_${randomUUID()}`;
  const at = options.at ?? new Date();
  const signature = new Webhook(options.secret ?? SECRET).sign(id, at, body);
  return { body, headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature } };
}
const deliver = ({ body, headers }: ReturnType<typeof signed>) =>
  request(issuer.app).post('/authorization-server/events').set(headers).set('content-type', 'application/json').send(body);
const revokedEvent = (authorizationId: string) => ({
  type: 'wallet_approval.revoked',
  timestamp: new Date().toISOString(),
  data: { authorization_id: authorizationId, credential_configuration_ids: ['age_over_sd_jwt', 'kyc_sd_jwt'], reason: 'user' },
});

describe('POST /authorization-server/events: the identity provider’s revoked approvals', () => {
  it('revokes every credential issued on the approval, and only those, once (a retried delivery changes nothing)', async () => {
    const authorizationId = randomUUID();
    const [age, kyc, other] = [await issuedOn(authorizationId), await issuedOn(authorizationId, 'kyc_sd_jwt'), await issuedOn(randomUUID())];
    const delivery = signed(revokedEvent(authorizationId));
    expect((await deliver(delivery)).status).toBe(204);
    expect([await statusOf(age), await statusOf(kyc), await statusOf(other)]).toEqual(['revoked', 'revoked', 'active']);
    // The wallet organization's endpoints hear of each, as of any revocation.
    const told = await db.webhookEvent.count({
      where: { organizationId, type: 'credential.revoked', subject: { in: [`urn:uuid:${age}`, `urn:uuid:${kyc}`] } },
    });
    expect(told).toBe(2);
    expect((await deliver(delivery)).status).toBe(204);
    expect(await db.webhookEvent.count({ where: { organizationId, type: 'credential.revoked', subject: `urn:uuid:${age}` } })).toBe(1);
  });

  it('takes a delivery of a rotation’s overlap, signed by the old secret and the new one', async () => {
    const authorizationId = randomUUID();
    const credential = await issuedOn(authorizationId);
    const delivery = signed(revokedEvent(authorizationId));
    const other = signed(revokedEvent(authorizationId), { secret: `whsec_${randomBytes(32).toString('base64')}`, id: delivery.headers['webhook-id'] });
    const both = `${other.headers['webhook-signature']} ${delivery.headers['webhook-signature']}`;
    expect((await deliver({ ...delivery, headers: { ...delivery.headers, 'webhook-signature': both } })).status).toBe(204);
    expect(await statusOf(credential)).toBe('revoked');
  });

  it('on wallet_approval.data_changed revokes only the credentials it names, and ignores a configuration this issuer does not have', async () => {
    const authorizationId = randomUUID();
    const [age, kyc] = [await issuedOn(authorizationId), await issuedOn(authorizationId, 'kyc_sd_jwt')];
    const event = {
      type: 'wallet_approval.data_changed',
      timestamp: new Date().toISOString(),
      data: { authorization_id: authorizationId, credential_configuration_ids: ['kyc_sd_jwt', 'unheard_of'] },
    };
    expect((await deliver(signed(event))).status).toBe(204);
    expect([await statusOf(age), await statusOf(kyc)]).toEqual(['active', 'revoked']);
  });

  it('refuses what the secret did not sign, an old delivery and a changed body, with 401, and revokes nothing', async () => {
    const authorizationId = randomUUID();
    const credential = await issuedOn(authorizationId);
    const event = revokedEvent(authorizationId);
    const refusals = [
      { ...signed(event), headers: {} },
      signed(event, { secret: `whsec_${randomBytes(32).toString('base64')}` }),
      signed(event, { at: new Date(Date.now() - 6 * 60_000) }),
      { ...signed(event), body: JSON.stringify({ ...event, data: { ...event.data, reason: 'client' } }) },
    ];
    for (const delivery of refusals) {
      const res = await deliver(delivery as ReturnType<typeof signed>);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_signature');
    }
    expect(await statusOf(credential)).toBe('active');
  });

  it('acknowledges an event it does not act on (the endpoint’s test event), and names a malformed one', async () => {
    const test = signed({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { webhook_endpoint_id: randomUUID() } });
    expect((await deliver(test)).status).toBe(204);
    const bad = await deliver(
      signed({ type: 'wallet_approval.revoked', timestamp: new Date().toISOString(), data: { authorization_id: 'x', credential_configuration_ids: [] } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toContain('body.data.authorization_id');
  });

  it('is not there when no secret is configured', async () => {
    const plain = buildIssuer();
    try {
      const res = await request(plain.app).post('/authorization-server/events').send({});
      expect(res.status).toBe(404);
    } finally {
      await plain.deps.close();
    }
  });
});

describe('AUTHORIZATION_SERVER_WEBHOOK_SECRET', () => {
  const base = { DATABASE_URL: testDatabaseUrl(), ISSUER_SIGNING_KEY_KEK: testSigningKeyKek('credential-issuer') };
  const server = {
    AUTHORIZATION_SERVER_URL: 'https://id.example.com',
    AUTHORIZATION_SERVER_CLIENT_ID: 'c',
    AUTHORIZATION_SERVER_CLIENT_SECRET: 's',
    WALLET_ORGANIZATION_ID: randomUUID(),
  };
  it('must be an endpoint’s whsec_ secret, and comes with the rest of the authorization server', () => {
    expect(loadConfig({ ...base, ...server, AUTHORIZATION_SERVER_WEBHOOK_SECRET: SECRET }).authorizationServer?.webhookSecret).toBe(SECRET);
    expect(() => loadConfig({ ...base, ...server, AUTHORIZATION_SERVER_WEBHOOK_SECRET: 'hunter2' })).toThrow(/AUTHORIZATION_SERVER_WEBHOOK_SECRET.*whsec_/);
    expect(() => loadConfig({ ...base, AUTHORIZATION_SERVER_WEBHOOK_SECRET: SECRET })).toThrow(
      /AUTHORIZATION_SERVER_WEBHOOK_SECRET: set only with AUTHORIZATION_SERVER_URL/,
    );
  });
});

describe('a credential recorded while its approval ends', () => {
  it('is revoked by the request that recorded it when the event came first and found nothing', async () => {
    const deps = { db, cache: issuer.deps.store.cache, now: () => new Date(), organizationId };
    const authorizationId = randomUUID();
    // The request asked the identity provider, then the event came and found nothing recorded yet.
    const askedAt = new Date(Date.now() - 1000);
    expect(await endApprovalCredentials(deps, authorizationId, ['age_over_sd_jwt'])).toBe(0);
    const late = await issuedOn(authorizationId);
    expect(await endedMeanwhile(deps, `${authorizationId}#age_over_sd_jwt`, askedAt)).toBe(true);
    expect(await statusOf(late)).toBe('revoked');
    // Another configuration on the same approval was not ended, nor another approval.
    const kyc = await issuedOn(authorizationId, 'kyc_sd_jwt');
    expect(await endedMeanwhile(deps, `${authorizationId}#kyc_sd_jwt`, askedAt)).toBe(false);
    expect(await endedMeanwhile(deps, `${randomUUID()}#age_over_sd_jwt`, askedAt)).toBe(false);
    expect(await statusOf(kyc)).toBe('active');
  });

  it('stands when the identity provider was asked after the end was heard of (its answer already holds the new data)', async () => {
    const deps = { db, cache: issuer.deps.store.cache, now: () => new Date(), organizationId };
    const authorizationId = randomUUID();
    await endApprovalCredentials(deps, authorizationId, ['age_over_sd_jwt']);
    const fresh = await issuedOn(authorizationId);
    expect(await endedMeanwhile(deps, `${authorizationId}#age_over_sd_jwt`, new Date(Date.now() + 1))).toBe(false);
    expect(await statusOf(fresh)).toBe('active');
  });
});

describe('the reconciliation (sweepApprovals)', () => {
  it('asks about every approval behind a live credential, fifty at a time, and revokes the credentials of those that ended', async () => {
    const approvals: string[] = Array.from({ length: 60 }, () => randomUUID());
    const credentials = new Map<string, string>();
    for (const id of approvals) credentials.set(id, await issuedOn(id));
    const ended = new Set([approvals[3]!, approvals[55]!]);
    // The identity provider's answer, as POST /oauth/wallet-approvals gives it (tests/platform runs the real one).
    const asked: string[][] = [];
    const server = {
      endedApprovals: async (ids: string[]) => {
        asked.push(ids);
        return new Set(ids.filter((id) => ended.has(id)));
      },
    };
    const deps = { db, cache: issuer.deps.store.cache, now: () => new Date(), logger: issuer.deps.logger, organizationId, server };
    expect(await sweepApprovals(deps)).toBe(2);
    const mine = asked.flat().filter((id) => credentials.has(id));
    expect(new Set(mine)).toEqual(new Set(approvals));
    expect(Math.max(...asked.map((batch) => batch.length))).toBeLessThanOrEqual(50);
    for (const [id, credential] of credentials) expect([id, await statusOf(credential)]).toEqual([id, ended.has(id) ? 'revoked' : 'active']);
    // A revoked credential is not asked about again.
    asked.length = 0;
    await sweepApprovals(deps);
    expect(asked.flat()).not.toContain(approvals[3]);
  });

  it('resumes where a failed sweep stopped, and revokes nothing on an answer it cannot take', async () => {
    for (let i = 0; i < 55; i++) await issuedOn(randomUUID());
    const seen: string[] = [];
    let calls = 0;
    const failing = {
      endedApprovals: async (ids: string[]) => {
        calls++;
        if (calls === 2) throw new Error('429 from the identity provider');
        seen.push(...ids);
        return new Set<string>();
      },
    };
    const deps = { db, cache: issuer.deps.store.cache, now: () => new Date(), logger: issuer.deps.logger, organizationId, server: failing };
    await expect(sweepApprovals(deps)).rejects.toThrow('429');
    const firstPage = [...seen];
    await sweepApprovals(deps);
    // The second sweep went on after the first page, not from the start.
    expect(seen.slice(firstPage.length)).not.toContain(firstPage[0]);
    expect(seen.slice(firstPage.length).every((id) => id > firstPage.at(-1)!)).toBe(true);
  });
});
