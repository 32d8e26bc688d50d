import { afterAll, beforeAll } from '@jest/globals';
import { createApiKey, createOrg, createUser, type AdminContext } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDatabaseUrl, testDb, testSigningKeyKek, uniqueEmail, withTestReplica } from '@svc/testkit';
import { contractSuite } from '@svc/testkit/contract-suite';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildDeps } from '../src/deps.js';
import request from 'supertest';

export const SUBJECT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** Every app of this test file answers as its OpenAPI document says. */
const checked = contractSuite();

export function buildIssuer(env: NodeJS.ProcessEnv = {}) {
  const config = loadConfig(
    withTestReplica({
      DATABASE_URL: testDatabaseUrl(),
      ISSUER_SIGNING_KEY_KEK: testSigningKeyKek('credential-issuer'),
      LOG_LEVEL: 'silent',
      SIGNING_WORKERS: '2',
      // Roomy, as arrangeOrg's keys are: these tests fire many requests at once.
      API_KEY_MAX_HOURLY_LIMIT: '100000',
      API_KEY_MAX_BURST_LIMIT: '1000',
      ORGANIZATION_HOURLY_LIMIT: '100000',
      ORGANIZATION_BURST_LIMIT: '1000',
      ...env,
    }),
  );
  const deps = buildDeps(config);
  return { app: checked(createApp(deps)), deps };
}

/** An organization with a token that may issue; roomy limits, as these tests fire many requests at once. */
export async function arrangeOrg(db: Db, permissions = 'credentials:issue') {
  const ctx: AdminContext = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail('issuer'), password: 'correct horse' });
  const org = await createOrg(ctx, { name: 'Issuing Org', ownerEmail: owner.email });
  const token = await createApiKey(ctx, { org: org.id, permissions, hourlyLimit: 100_000, burstLimit: 1000 });
  return { ctx, org, token };
}

/** One test file's issuer instance, database handle and API token, made before its tests and closed after. */
export function useIssuer(): { readonly db: Db; readonly issuer: ReturnType<typeof buildIssuer>; readonly token: string } {
  const suite = {} as { db: Db; issuer: ReturnType<typeof buildIssuer>; token: string };
  beforeAll(async () => {
    suite.db = testDb();
    suite.issuer = buildIssuer();
    suite.token = (await arrangeOrg(suite.db)).token.key;
  });
  afterAll(async () => {
    await suite.issuer.deps.close();
    await suite.db.$disconnect();
  });
  return suite;
}

/**
 * POST /credentials/issue (the W3C VC API shape) with a credential built for the DID `issuer`
 * signs with now; if another test file rotated the shared issuer key between building and issuing
 * (refused: not this issuer's DID), builds it again.
 */
export async function issueAsIssuer(issuer: ReturnType<typeof buildIssuer>, token: string, build: (did: string) => object, options?: object) {
  for (let attempt = 1; ; attempt++) {
    const did = (await issuer.deps.issuerKeys.current()).controller;
    const res = await request(issuer.app)
      .post('/credentials/issue')
      .set('X-API-Token', token)
      .send({ credential: build(did), ...(options ? { options } : {}) });
    const rotated = res.status === 400 && String(res.body.error_description).startsWith("credential.issuer: must be this issuer's DID");
    if (!rotated || attempt === 3) return res;
  }
}
