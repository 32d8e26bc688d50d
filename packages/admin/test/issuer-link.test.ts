import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient, type Db } from '@svc/db';
import { verifyClientSecret } from '@svc/secrets';
import { KeyEncryption, WebhookSecrets } from '@svc/signing-keys';
import { testSigningKeyKek, testSuiteDatabaseUrl } from '@svc/testkit';
import { CREDENTIAL_ISSUER_CLIENT_ID, createClient, createOrg, createUser, type LinkIssuerInput, linkCredentialIssuer, runCli } from '../src/index.js';

// The link is found by its client's id, one set per id in a database: a database of this file's
// own, so no other suite's link is found here, and each test links a client id of its own.
let db: Db;
beforeAll(async () => {
  db = createPrismaClient(await testSuiteDatabaseUrl('issuer_link'), { poolSize: 8 });
});
afterAll(async () => {
  await db?.$disconnect();
});

const ctx = () => ({ db, now: () => new Date() });
const urls = { issuerUrl: 'https://credentials.example.com', authorizationServerUrl: 'https://id.example.com' };
const ownClientId = () => `svc_client_test_${randomBytes(6).toString('hex')}`;
const webhookSecrets = () => new WebhookSecrets(new KeyEncryption('identity-provider', { current: testSigningKeyKek('identity-provider') }));
const endpointsOf = (org: string) => db.webhookEndpoint.findMany({ where: { organizationId: org } });

describe('linkCredentialIssuer', () => {
  it('makes the issuer’s organization, client and approval-events endpoint on the first run, and finds them on the next', async () => {
    const first = await linkCredentialIssuer(ctx(), urls);
    expect(first).toMatchObject({ clientId: CREDENTIAL_ISSUER_CLIENT_ID, made: ['organization', 'client', 'approval_events_endpoint'], updated: [] });
    const client = await db.application.findUniqueOrThrow({ where: { clientId: CREDENTIAL_ISSUER_CLIENT_ID } });
    expect(client).toMatchObject({ organizationId: first.organizationId, isPublic: false, redirectUris: [], status: 'active' });
    expect(verifyClientSecret(first.clientSecret!, client.clientSecretHash!)).toBe(true);
    const [endpoint] = await endpointsOf(first.organizationId);
    expect(endpoint).toMatchObject({ url: 'https://credentials.example.com/authorization-server/events', enabled: true });
    expect(endpoint!.events).toEqual(['wallet_approval.revoked', 'wallet_approval.data_changed']);
    expect(webhookSecrets().open(endpoint!.id, endpoint!.secret)).toBe(first.approvalEvents!.secret);

    const again = await linkCredentialIssuer(ctx(), urls);
    // The same set; the client's secret is stored hashed, so it is not known again; the endpoint's is.
    expect(again).toEqual({ ...first, clientSecret: undefined, made: [], updated: [] });
    expect(await db.application.count({ where: { organizationId: first.organizationId } })).toBe(1);
    expect(await endpointsOf(first.organizationId)).toHaveLength(1);
    expect(await db.organization.count({ where: { id: first.organizationId } })).toBe(1);
  });

  it('makes one set when several run at once', async () => {
    const input = { ...urls, clientId: ownClientId() };
    const links = await Promise.all(Array.from({ length: 5 }, () => linkCredentialIssuer(ctx(), input)));
    expect(links.filter((l) => l.made.length > 0).map((l) => l.made)).toEqual([['organization', 'client', 'approval_events_endpoint']]);
    expect(new Set(links.map((l) => l.organizationId)).size).toBe(1);
    expect(new Set(links.map((l) => l.approvalEvents!.id)).size).toBe(1);
    expect(await db.application.count({ where: { organizationId: links[0]!.organizationId } })).toBe(1);
    expect(await endpointsOf(links[0]!.organizationId)).toHaveLength(1);
  });

  it('makes the given ids and secrets the link’s, refuses other secrets later, and rotates to them when told', async () => {
    const org = randomUUID();
    const secrets = { clientSecret: randomBytes(32).toString('hex'), webhookSecret: `whsec_${randomBytes(32).toString('base64')}` };
    const input: LinkIssuerInput = { ...urls, clientId: ownClientId(), organization: org, ...secrets };
    const first = await linkCredentialIssuer(ctx(), input);
    expect(first).toMatchObject({
      organizationId: org,
      clientSecret: secrets.clientSecret,
      clientSecretGiven: true,
      approvalEvents: { secret: secrets.webhookSecret },
    });
    expect(await db.organization.findUniqueOrThrow({ where: { id: org } })).toMatchObject({ name: 'Credential issuer', ownerUserId: null });
    expect((await linkCredentialIssuer(ctx(), input)).made).toEqual([]);

    const other = { clientSecret: randomBytes(32).toString('hex'), webhookSecret: `whsec_${randomBytes(32).toString('base64')}` };
    await expect(linkCredentialIssuer(ctx(), { ...input, clientSecret: other.clientSecret })).rejects.toThrow(/--rotate-client-secret makes it so/);
    await expect(linkCredentialIssuer(ctx(), { ...input, webhookSecret: other.webhookSecret })).rejects.toThrow(/--rotate-webhook-secret makes it so/);
    const rotated = await linkCredentialIssuer(ctx(), { ...input, ...other, rotateClientSecret: true, rotateWebhookSecret: true });
    expect(rotated.updated).toEqual(['client_secret', 'webhook_secret']);
    const client = await db.application.findUniqueOrThrow({ where: { clientId: input.clientId! } });
    expect(verifyClientSecret(other.clientSecret, client.clientSecretHash!)).toBe(true);
    // Deliveries are signed with the old secret too for a day, while the issuer is redeployed with the new one.
    const [endpoint] = await endpointsOf(org);
    expect(webhookSecrets().open(endpoint!.id, endpoint!.secret)).toBe(other.webhookSecret);
    expect(webhookSecrets().open(endpoint!.id, endpoint!.previousSecret)).toBe(secrets.webhookSecret);
    expect(endpoint!.previousSecretUntil!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    // Rotating without a secret given makes a new one, shown once.
    const fresh = await linkCredentialIssuer(ctx(), { ...input, clientSecret: undefined, webhookSecret: other.webhookSecret, rotateClientSecret: true });
    expect(fresh.clientSecret).toMatch(/^svcs_/);
    expect(fresh.updated).toEqual(['client_secret']);
  });

  it('links a client that exists (the demo’s) with its organization, and refuses one it cannot use', async () => {
    const owner = await createUser(ctx(), { email: `owner-${randomBytes(4).toString('hex')}@test.example`, password: 'correct horse' });
    const org = await createOrg(ctx(), { name: 'Demo Organization', ownerEmail: owner.email });
    const made = await createClient(ctx(), { org: org.id, name: 'Credential issuer', redirectUris: ['http://localhost:4003/callback'], scopes: 'openid' });
    const link = await linkCredentialIssuer(ctx(), {
      ...urls,
      issuerUrl: 'http://localhost:4002',
      clientId: made.client_id,
      clientSecret: made.client_secret!,
    });
    expect(link).toMatchObject({ organizationId: org.id, made: ['approval_events_endpoint'] });
    // The issuer moved (another port): its endpoint follows it, with its secret.
    const moved = await linkCredentialIssuer(ctx(), { ...urls, issuerUrl: 'http://localhost:4102/', clientId: made.client_id });
    expect(moved).toMatchObject({ made: [], updated: ['approval_events_url'], approvalEvents: link.approvalEvents });
    expect((await endpointsOf(org.id)).map((e) => e.url)).toEqual(['http://localhost:4102/authorization-server/events']);

    await expect(linkCredentialIssuer(ctx(), { ...urls, clientId: made.client_id, organization: randomUUID() })).rejects.toThrow(
      `${made.client_id} belongs to organization ${org.id}`,
    );
    const wallet = await createClient(ctx(), { org: org.id, name: 'Wallet', redirectUris: ['http://localhost:4003/callback'], scopes: 'openid', public: true });
    await expect(linkCredentialIssuer(ctx(), { ...urls, clientId: wallet.client_id })).rejects.toThrow(/authenticates without a secret/);
    await db.application.update({ where: { clientId: made.client_id }, data: { status: 'revoked' } });
    await expect(linkCredentialIssuer(ctx(), { ...urls, clientId: made.client_id })).rejects.toThrow(/is revoked/);
    await expect(linkCredentialIssuer({ ...ctx(), environment: 'sandbox' }, urls)).rejects.toThrow(/the sandbox has no credential issuer/);
  });
});

describe('admin CLI issuer:link', () => {
  const cli = async (env: NodeJS.ProcessEnv, ...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, async () => ({ ...ctx(), close: async () => undefined }), {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      env,
    });
    return { code, out, err };
  };
  const args = (clientId: string) => ['issuer:link', '--issuer-url', urls.issuerUrl, '--idp-url', urls.authorizationServerUrl, '--client-id', clientId];

  it('prints both services’ settings, the secrets only where it made them, and as VAR=value lines with --env', async () => {
    const clientId = ownClientId();
    const first = await cli({}, ...args(clientId));
    expect(first).toMatchObject({ code: 0, err: '' });
    const made = JSON.parse(first.out);
    expect(made).toEqual({
      made: ['organization', 'client', 'approval_events_endpoint'],
      updated: [],
      organization_id: expect.any(String),
      client_id: clientId,
      approval_events_endpoint_id: expect.any(String),
      identity_provider: { CREDENTIAL_ISSUER_URL: urls.issuerUrl, CREDENTIAL_ISSUER_CLIENT_ID: clientId },
      credential_issuer: {
        AUTHORIZATION_SERVER_URL: urls.authorizationServerUrl,
        AUTHORIZATION_SERVER_CLIENT_ID: clientId,
        AUTHORIZATION_SERVER_CLIENT_SECRET: expect.stringMatching(/^svcs_/),
        WALLET_ORGANIZATION_ID: made.organization_id,
        AUTHORIZATION_SERVER_WEBHOOK_SECRET: expect.stringMatching(/^whsec_/),
      },
    });
    const again = await cli({}, ...args(clientId), '--env');
    expect(again.code).toBe(0);
    expect(again.out.split('\n')).toEqual([
      '# identity-provider',
      `CREDENTIAL_ISSUER_URL=${urls.issuerUrl}`,
      `CREDENTIAL_ISSUER_CLIENT_ID=${clientId}`,
      '# credential-issuer',
      `AUTHORIZATION_SERVER_URL=${urls.authorizationServerUrl}`,
      `AUTHORIZATION_SERVER_CLIENT_ID=${clientId}`,
      `WALLET_ORGANIZATION_ID=${made.organization_id}`,
      `AUTHORIZATION_SERVER_WEBHOOK_SECRET=${made.credential_issuer.AUTHORIZATION_SERVER_WEBHOOK_SECRET}`,
      expect.stringMatching(/^# AUTHORIZATION_SERVER_CLIENT_SECRET is stored hashed and shown only when made: .*--rotate-client-secret/),
      '',
    ]);
  });

  it('takes the secrets from the issuer’s own variables and prints neither back', async () => {
    const env = {
      AUTHORIZATION_SERVER_CLIENT_SECRET: randomBytes(32).toString('hex'),
      AUTHORIZATION_SERVER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    };
    const run = await cli(env, ...args(ownClientId()), '--rotate-client-secret', '--rotate-webhook-secret');
    expect(run.code).toBe(0);
    for (const secret of Object.values(env)) expect(run.out).not.toContain(secret);
    expect(Object.keys(JSON.parse(run.out).credential_issuer)).toEqual([
      'AUTHORIZATION_SERVER_URL',
      'AUTHORIZATION_SERVER_CLIENT_ID',
      'WALLET_ORGANIZATION_ID',
    ]);
    const refused = await cli({ AUTHORIZATION_SERVER_CLIENT_SECRET: 'short' }, ...args(ownClientId()));
    expect([refused.code, refused.out, refused.err]).toEqual([1, '', expect.stringMatching(/^error: issuer:link: the client secret must be 32 to 200/)]);
    expect((await cli({}, 'issuer:link', '--issuer-url', urls.issuerUrl)).code).toBe(2);
  });
});
