import { describe, expect, it } from '@jest/globals';
import { cli, db, expectRefused, newOrg } from './cli-harness.js';

describe('admin CLI: actions', () => {
  it('registers an action with the API’s defaults and answers it as the API does', async () => {
    const { org } = await newOrg();
    const run = await cli('action:create', '--org', org.id, '--action', 'vote.2026');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      action: 'vote.2026',
      description: null,
      max_per_person: 1,
      period: 'never',
      requires_palm_verification: true,
      created_at: expect.any(String),
    });
    expect(await db.action.findFirstOrThrow({ where: { organizationId: org.id } })).toMatchObject({ name: 'vote.2026', maxPerPerson: 1 });
  });

  it('registers with every flag, lists oldest first, and deletes an action with its counts', async () => {
    const { org } = await newOrg();
    const claim = await cli(
      'action:create',
      '--org',
      org.id,
      '--action',
      'airdrop-claim',
      '--description',
      'One claim a week',
      '--max-per-person',
      '2',
      '--period',
      'week',
      '--without-palm-verification',
    );
    expect(claim.json).toMatchObject({
      action: 'airdrop-claim',
      description: 'One claim a week',
      max_per_person: 2,
      period: 'week',
      requires_palm_verification: false,
    });
    await cli('action:create', '--org', org.id, '--action', 'vote.2026', '--max-per-person', '1', '--period', 'never');
    expect((await cli('action:list', '--org', org.id)).json.actions.map((a: { action: string }) => a.action)).toEqual(['airdrop-claim', 'vote.2026']);

    const action = await db.action.findFirstOrThrow({ where: { organizationId: org.id, name: 'vote.2026' } });
    await db.actionProof.create({ data: { actionId: action.id, nullifier: `nul_${'a'.repeat(43)}`, count: 1, provedAt: new Date() } });
    expect((await cli('action:delete', '--org', org.id, '--action', 'vote.2026')).json).toEqual({ action: 'vote.2026', deleted: true, nullifiers_deleted: 1 });
    expect(await db.actionProof.count({ where: { actionId: action.id } })).toBe(0);
    expect((await cli('action:list', '--org', org.id)).json.actions.map((a: { action: string }) => a.action)).toEqual(['airdrop-claim']);
    expectRefused(await cli('action:delete', '--org', org.id, '--action', 'vote.2026'), /has no action named vote\.2026/);
  });

  it.each([
    ['a name with capitals and a space', ['--action', 'Vote 2026'], /--action must be 1 to 64 of a-z 0-9 _ \. - , starting with a letter or digit/],
    ['a limit of 0', ['--action', 'vote', '--max-per-person', '0'], /--max-per-person must be at least 1/],
    ['a limit in words', ['--action', 'vote', '--max-per-person', 'one'], /--max-per-person must be a whole number/],
    ['a period of a year', ['--action', 'vote', '--period', 'year'], /--period must be one of: day, week, month, never/],
    ['a description of 201 characters', ['--action', 'vote', '--description', 'x'.repeat(201)], /--description must be at most 200 characters/],
  ])('refuses %s with the contract’s reason, naming the flag', async (_what, flags, pattern) => {
    const { org } = await newOrg();
    expectRefused(await cli('action:create', '--org', org.id, ...flags), pattern);
    expect(await db.action.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('refuses a name the organization has, and an unknown organization', async () => {
    const { org } = await newOrg();
    await cli('action:create', '--org', org.id, '--action', 'vote');
    expectRefused(await cli('action:create', '--org', org.id, '--action', 'vote', '--max-per-person', '3'), /has an action named vote already/);
    expect(await db.action.findFirstOrThrow({ where: { organizationId: org.id } })).toMatchObject({ maxPerPerson: 1 });
    expectRefused(await cli('action:list', '--org', '00000000-0000-0000-0000-000000000000'), /no organization with id/);
  });

  it('is listed in the help, suggests itself for a typo, and says its flags', async () => {
    expect((await cli('--help')).out).toMatch(/^ {2}action:create +register an action/m);
    expectRefused(await cli('action:craete', '--org', 'x'), /did you mean action:create\?/);
    expectRefused(await cli('action:create', '--org', 'x', '--max-per-persn', '2'), /Did you mean --max-per-person\?/);
    expectRefused(await cli('action:create', '--org', 'x'), /missing --action/);
    expect((await cli('action:create', '--help')).out).toMatch(/--without-palm-verification\n/);
  });
});
