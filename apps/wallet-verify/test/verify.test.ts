import { generateApiKey } from '@svc/secrets';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey, disableApiKey, removeWallet, setPalmVerified } from '@svc/admin';
import type { Db } from '@svc/db';
import { pairwiseUserId } from '@svc/secrets';
import { testDb, testPairwiseSecret } from '@svc/testkit';
import request from 'supertest';
import { arrange, buildService, randomAddress } from './helpers.js';

let db: Db;
const services: { deps: { close(): Promise<void> } }[] = [];
function service(env: NodeJS.ProcessEnv = {}, clock?: () => number) {
  const built = buildService({ WALLET_CACHE_TTL_SECONDS: '0', API_KEY_CACHE_TTL_SECONDS: '0', ...env }, clock);
  services.push(built);
  return built.app;
}

beforeAll(() => {
  db = testDb();
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.deps.close()));
  await db.$disconnect();
});

const verify = (app: ReturnType<typeof service>, address: string, key?: string) => {
  const req = request(app).get('/v1/human/verify').query({ wallet_address: address });
  return key === undefined ? req : req.set('X-SVC-API-Key', key);
};

describe('GET /metrics', () => {
  it('counts verifications by outcome and rate-limit rejections', async () => {
    const { key, human, other } = await arrange(db, { burstLimit: 3 });
    // A stopped clock: the four requests arrive at one instant, so the burst of 3 refuses the fourth.
    const now = Date.now();
    const app = service({}, () => now);
    for (const wallet of [human.wallet, other.wallet, randomAddress(), human.wallet]) await verify(app, wallet, key.key);
    const text = (await request(app).get('/metrics')).text;
    expect(text).toMatch(/^wallet_verifications_total\{result="human",service="wallet-verify"\} 1$/m);
    expect(text).toMatch(/^wallet_verifications_total\{result="not_human",service="wallet-verify"\} 1$/m);
    expect(text).toMatch(/^wallet_verifications_total\{result="not_found",service="wallet-verify"\} 1$/m);
    expect(text).toMatch(/^rate_limit_rejections_total\{route="\/v1\/human\/verify",service="wallet-verify"\} 1$/m);
  });
});

describe('GET /v1/human/verify', () => {
  it('answers is_human true for a palm-verified user’s wallet', async () => {
    const { org, key, human } = await arrange(db);
    const res = await verify(service(), human.wallet, key.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ wallet_address: human.wallet, is_human: true, user_id: pairwiseUserId(testPairwiseSecret(), org.id, human.id) });
  });

  it('answers is_human false for a known wallet of a user who is not palm-verified', async () => {
    const { org, key, other } = await arrange(db);
    const res = await verify(service(), other.wallet, key.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ wallet_address: other.wallet, is_human: false, user_id: pairwiseUserId(testPairwiseSecret(), org.id, other.id) });
  });

  it('answers 404 for an unknown wallet', async () => {
    const { key } = await arrange(db);
    const res = await verify(service(), randomAddress(), key.key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Wallet not found' });
  });

  it('answers 401 Missing API key without the header', async () => {
    const { human } = await arrange(db);
    const res = await verify(service(), human.wallet);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Missing API key' });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it.each([
    ['a malformed key', 'not-a-key'],
    ['a key with wrong check digits', 'svck_AAAAAAAA_' + 'B'.repeat(43) + '000000'],
  ])('answers 401 for %s', async (_what, key) => {
    const { human } = await arrange(db);
    const res = await verify(service(), human.wallet, key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid / disabled API key' });
  });

  it('answers 401 for a well-formed key that does not exist', async () => {
    const { human, ctx, org } = await arrange(db);
    const doomed = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    await db.apiKey.delete({ where: { id: doomed.id } });
    const res = await verify(service(), human.wallet, doomed.key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid / disabled API key' });
  });

  it('answers 401 naming what it is for a sandbox key (sbx_): wallet verify runs in production only', async () => {
    const { human } = await arrange(db);
    const res = await verify(service(), human.wallet, generateApiKey('sandbox').key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid / disabled API key: this is a sandbox key (sbx_), and wallet verify takes production keys only' });
  });

  it('answers 403 for a disabled key', async () => {
    const { key, human, ctx } = await arrange(db);
    await disableApiKey(ctx, { id: key.id });
    const res = await verify(service(), human.wallet, key.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Invalid / disabled API key' });
  });

  it('answers 403 for a key without wallet:verify, and still counts the request', async () => {
    const { key, human } = await arrange(db, { permissions: 'credentials:issue' });
    const res = await verify(service(), human.wallet, key.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Invalid / disabled API key' });
    expect(res.headers['x-ratelimit-remaining']).toBe('999');
  });

  it('shows palm status changes and wallet removal once the cache window has passed', async () => {
    const { key, human, ctx } = await arrange(db);
    const app = service();
    await setPalmVerified(ctx, { email: human.email, verified: false });
    expect((await verify(app, human.wallet, key.key)).body.is_human).toBe(false);
    await removeWallet(ctx, { wallet: human.wallet });
    expect((await verify(app, human.wallet, key.key)).status).toBe(404);
  });

  it('serves from its cache within the documented window', async () => {
    const { key, human, ctx } = await arrange(db);
    const app = service({ WALLET_CACHE_TTL_SECONDS: '300' });
    expect((await verify(app, human.wallet, key.key)).body.is_human).toBe(true);
    await setPalmVerified(ctx, { email: human.email, verified: false });
    expect((await verify(app, human.wallet, key.key)).body.is_human).toBe(true);
  });

  it('records last_used_at and the requests of each hour in batches, not per request', async () => {
    const { key, human } = await arrange(db);
    const { app, deps } = buildService({ API_KEY_LAST_USED_FLUSH_SECONDS: '3600' });
    services.push({ deps });
    await verify(app, human.wallet, key.key);
    await verify(app, '0x0000000000000000000000000000000000000001', key.key);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toBeNull();
    expect(await db.apiKeyUsage.count({ where: { apiKeyId: key.id } })).toBe(0);
    await deps.authenticator.flush();
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toBeInstanceOf(Date);
    // Every request with a known active key counts, whatever its answer (the developer console shows it).
    expect((await db.apiKeyUsage.findFirstOrThrow({ where: { apiKeyId: key.id } })).count).toBe(2);
  });

  it('answers 405 for other methods', async () => {
    const res = await request(service()).post('/v1/human/verify');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('wallet_address validation', () => {
  const valid = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const cases: [string, string | string[] | undefined, RegExp][] = [
    ['lowercase', valid.toLowerCase(), /has no EIP-55 checksum \(single-case\); the checksummed form is 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/],
    [
      'uppercase',
      '0x' + valid.slice(2).toUpperCase(),
      /has no EIP-55 checksum \(single-case\); the checksummed form is 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/,
    ],
    [
      'wrong checksum',
      '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      /fails the EIP-55 checksum; the checksummed form is 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/,
    ],
    ['too short', valid.slice(0, 40), /must have 40 hexadecimal digits after "0x", got 38/],
    ['too long', valid + 'a', /must have 40 hexadecimal digits after "0x", got 41/],
    ['non-hex', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeZ', /must contain only hexadecimal digits/],
    ['missing 0x', valid.slice(2), /must start with "0x"/],
    ['empty', '', /is required/],
    ['absent', undefined, /is required/],
    ['repeated', [valid, valid], /must be given once/],
  ];

  it.each(cases)('answers 400 for %s, saying what is wrong', async (_name, value, message) => {
    const { key } = await arrange(db);
    let req = request(service()).get('/v1/human/verify').set('X-SVC-API-Key', key.key);
    if (value !== undefined) req = req.query({ wallet_address: value });
    const res = await req;
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details).toEqual([{ field: 'query.wallet_address', message: expect.stringMatching(message) }]);
    expect(res.body.error_description).toMatch(message);
  });

  it('accepts the EIP-55 test vectors, including the single-case ones', async () => {
    const { key } = await arrange(db, { burstLimit: 100 });
    const app = service();
    for (const address of [
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0xde709f2102306220921060314715629080e2fb77',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    ]) {
      expect((await verify(app, address, key.key)).status).toBe(404);
    }
  });
});
