// Accounts people made themselves (developer sign-up, joining by invitation) proved only that their
// holder reads that address. Attack: squatting someone's email at sign-up, so that the operator who
// later verifies that person by email vouches for the squatter instead.
import { describe, expect, it } from '@jest/globals';
import { hashPassword, sha256Hex } from '@svc/secrets';
import { uniqueEmail } from '@svc/testkit';
import { cli, db, expectRefused, WALLET } from './cli-harness.js';

/** An account as sign-up makes it: marked self-registered. */
async function selfRegistered() {
  const email = uniqueEmail('self');
  const made = await cli('user:create', '--email', email, '--password', 'correct horse');
  await db.user.update({ where: { id: made.json.id }, data: { selfRegistered: true } });
  return email;
}

describe('verified data for a self-registered account', () => {
  it('is refused by email alone: user:palm, user:credential, wallet:register name the flag that allows it, and change nothing', async () => {
    const email = await selfRegistered();
    const why = new RegExp(`${email} signed up by themselves.*--self-registered-ok`);
    expectRefused(await cli('user:palm', '--email', email), why);
    expectRefused(await cli('user:credential', '--email', email, '--source', 'kyc', '--claims', '{"kyc_passed": true}'), why);
    expectRefused(await cli('wallet:register', '--email', email, '--wallet', WALLET), why);
    const user = await db.user.findUniqueOrThrow({ where: { email }, include: { credentials: true, wallets: true } });
    expect([user.palmVerified, user.credentials, user.wallets]).toEqual([false, [], []]);
    expect((await cli('user:show', '--email', email)).json).toMatchObject({ self_registered: true, palm_verified: false });
  });

  it('is attached with --self-registered-ok, once the operator has checked it is the person', async () => {
    const email = await selfRegistered();
    expect((await cli('user:palm', '--email', email, '--self-registered-ok')).json).toMatchObject({ palm_verified: true });
    const credential = await cli('user:credential', '--email', email, '--source', 'kyc', '--claims', '{"kyc_passed": true}', '--self-registered-ok');
    expect(credential.code).toBe(0);
    // Taking palm verification away vouches for nobody: no flag needed.
    expect((await cli('user:palm', '--email', email, '--revoke')).json).toMatchObject({ palm_verified: false });
  });

  it('is attached as before to an account the operator made', async () => {
    const email = uniqueEmail('operator-made');
    await cli('user:create', '--email', email, '--password', 'correct horse');
    expect((await cli('user:palm', '--email', email)).json).toMatchObject({ palm_verified: true });
    expect((await cli('user:show', '--email', email)).json).toMatchObject({ self_registered: false });
  });
});

describe('user:create for an address with a sign-up still waiting for its link', () => {
  it('makes the operator’s account and drops the pending sign-up, whose link can then make nothing', async () => {
    const email = uniqueEmail('pending');
    await db.pendingSignup.create({
      data: {
        email,
        tokenHash: sha256Hex(`svcsgn_${email}`),
        passwordHash: await hashPassword('the squatter’s password'),
        organizationName: 'Squat',
        expiresAt: new Date(Date.now() + 30 * 60_000),
      },
    });
    const made = await cli('user:create', '--email', email, '--password', 'correct horse', '--palm-verified');
    expect(made.code).toBe(0);
    expect(await db.pendingSignup.count({ where: { email } })).toBe(0);
    expect(await db.user.findUniqueOrThrow({ where: { email } })).toMatchObject({ selfRegistered: false, palmVerified: true });
  });
});
