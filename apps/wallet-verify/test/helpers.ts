import { createApiKey, createOrg, createUser, type AdminContext } from '@svc/admin';
import type { Db } from '@svc/db';
import { toChecksumAddress } from '@svc/schemas';
import { randomHex40, testDatabaseUrl, testPairwiseSecret, testRedisUrl, uniqueEmail, withTestReplica } from '@svc/testkit';
import { contractSuite } from '@svc/testkit/contract-suite';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildDeps } from '../src/deps.js';

/** Every app of this test file answers as its OpenAPI document says. */
const checked = contractSuite();

export function buildService(env: NodeJS.ProcessEnv = {}, clock?: () => number) {
  const config = loadConfig(
    withTestReplica({ DATABASE_URL: testDatabaseUrl(), REDIS_URL: testRedisUrl(), PAIRWISE_SECRET: testPairwiseSecret(), LOG_LEVEL: 'silent', ...env }),
  );
  const deps = buildDeps(config, clock ? { clock: { now: () => new Date(clock()) } } : {});
  return { app: checked(createApp(deps)), deps };
}

export function randomAddress(): string {
  return toChecksumAddress(randomHex40());
}

/** An organization with a key, a palm-verified user and an unverified user, each with a wallet. */
export async function arrange(db: Db, keyOptions: { permissions?: string; hourlyLimit?: number; burstLimit?: number } = {}) {
  const ctx: AdminContext = { db, now: () => new Date() };
  const human = await createUser(ctx, { email: uniqueEmail('human'), password: 'correct horse', wallets: [randomAddress()], palmVerified: true });
  const other = await createUser(ctx, { email: uniqueEmail('other'), password: 'correct horse', wallets: [randomAddress()] });
  const org = await createOrg(ctx, { name: 'Verifier Inc', ownerEmail: human.email });
  const key = await createApiKey(ctx, {
    org: org.id,
    permissions: keyOptions.permissions ?? 'wallet:verify',
    hourlyLimit: keyOptions.hourlyLimit,
    burstLimit: keyOptions.burstLimit,
  });
  const wallets = await db.wallet.findMany({ where: { userId: { in: [human.id, other.id] } } });
  const walletOf = (id: string) => wallets.find((w) => w.userId === id)!.address;
  return { ctx, org, key, human: { ...human, wallet: walletOf(human.id) }, other: { ...other, wallet: walletOf(other.id) } };
}
