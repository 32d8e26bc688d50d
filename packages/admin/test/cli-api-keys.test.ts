import { describe, expect, it } from '@jest/globals';
import { hashApiKey } from '@svc/secrets';
import { cli, cliWith, db, expectRefused, newOrg } from './cli-harness.js';

describe('admin CLI: API keys', () => {
  it('creates a key shown once and stored as a hash with a public prefix', async () => {
    const { org } = await newOrg();
    const run = await cli('apikey:create', '--org', org.id, '--permissions', 'wallet:verify,credentials:issue', '--hourly-limit', '50', '--burst-limit', '5');
    expect(run.json).toEqual({ id: expect.any(String), key: expect.stringMatching(/^svck_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}[0-9a-f]{6}$/) });
    const key = await db.apiKey.findUniqueOrThrow({ where: { id: run.json.id } });
    expect(key).toMatchObject({
      status: 'active',
      permissions: ['wallet:verify', 'credentials:issue'],
      hourlyLimit: 50,
      burstLimit: 5,
      prefix: run.json.key.slice(5, 13),
    });
    expect(key.keyHash).toBe(hashApiKey(run.json.key));
  });

  it('defaults to 1000 per hour and a burst of 10', async () => {
    const { org } = await newOrg();
    const run = await cli('apikey:create', '--org', org.id, '--permissions', 'wallet:verify');
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: run.json.id } })).toMatchObject({ hourlyLimit: 1000, burstLimit: 10 });
  });

  it('disables, rotates and re-limits keys', async () => {
    const { org } = await newOrg();
    const created = (await cli('apikey:create', '--org', org.id, '--permissions', 'wallet:verify', '--hourly-limit', '20')).json;
    const rotated = await cli('apikey:rotate', '--id', created.id);
    expect(rotated.json).toEqual({ id: expect.any(String), key: expect.stringMatching(/^svck_/), replaces: created.id });
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ status: 'disabled' });
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: rotated.json.id } })).toMatchObject({
      status: 'active',
      hourlyLimit: 20,
      permissions: ['wallet:verify'],
      rotatedFromId: created.id,
    });
    expectRefused(await cli('apikey:rotate', '--id', created.id), /is disabled/);
    expect((await cli('apikey:limits', '--id', rotated.json.id, '--burst-limit', '3')).json).toEqual({
      id: rotated.json.id,
      hourly_limit: 20,
      burst_limit: 3,
    });
    expect((await cli('apikey:disable', '--id', rotated.json.id)).json).toEqual({ id: rotated.json.id, status: 'disabled' });
  });

  it('refuses limits above the platform maximum, which only the operator raises', async () => {
    const { org } = await newOrg();
    const flooding = ['apikey:create', '--org', org.id, '--permissions', 'wallet:verify', '--hourly-limit', '10000000'];
    expectRefused(await cli(...flooding), /--hourly-limit must be at most 10000, the platform maximum per key \(API_KEY_MAX_HOURLY_LIMIT\)/);
    expectRefused(
      await cli('apikey:create', '--org', org.id, '--permissions', 'wallet:verify', '--burst-limit', '100000'),
      /--burst-limit must be at most 100, the platform maximum per key \(API_KEY_MAX_BURST_LIMIT\)/,
    );
    expect(await db.apiKey.count({ where: { organizationId: org.id } })).toBe(0);
    const raised = await cliWith({ env: { API_KEY_MAX_HOURLY_LIMIT: '20000000' } }, ...flooding);
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: raised.json.id } })).toMatchObject({ hourlyLimit: 10_000_000 });
    expectRefused(await cli('apikey:limits', '--id', raised.json.id, '--burst-limit', '101'), /--burst-limit must be at most 100/);
    expectRefused(
      await cliWith({ env: { API_KEY_MAX_BURST_LIMIT: 'lots' } }, 'apikey:limits', '--id', raised.json.id, '--burst-limit', '5'),
      /API_KEY_MAX_BURST_LIMIT must be a whole number/,
    );
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: raised.json.id } })).toMatchObject({ burstLimit: 10 });
  });

  it.each([
    [['apikey:create', '--permissions', 'root'], /unknown permissions: root/],
    [['apikey:create', '--permissions', 'wallet:verify', '--hourly-limit', '0'], /--hourly-limit must be a whole number from 1/],
    [['apikey:create', '--permissions', 'wallet:verify', '--burst-limit', '1.5'], /--burst-limit must be a whole number/],
    [['apikey:disable', '--id', '00000000-0000-0000-0000-000000000000'], /no API key with id/],
    [['apikey:limits', '--id', '00000000-0000-0000-0000-000000000000'], /give --hourly-limit, --burst-limit or both/],
  ])('refuses %j', async (argv, pattern) => {
    const { org } = await newOrg();
    const args = argv[0] === 'apikey:create' ? [argv[0]!, '--org', org.id, ...argv.slice(1)] : argv;
    expectRefused(await cli(...args), pattern);
    expect(await db.apiKey.count({ where: { organizationId: org.id } })).toBe(0);
  });
});
