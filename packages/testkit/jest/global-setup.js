import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate, startEmbeddedPostgres } from '@svc/db';
import { testReplicaCaughtUp } from '../dist/replica-run.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export default async function globalSetup() {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // Run directly in a workspace without `npm test`'s embedded server: start one of our own.
    const dataDir = `${repoRoot}.data/test-postgres`;
    const embedded = await startEmbeddedPostgres({ dataDir, port: 54330, database: 'postgres' });
    serverUrl = embedded.url;
    globalThis.__svcEmbedded = { ...embedded, dataDir };
  }
  const name = `t_${basename(process.cwd()).replace(/[^a-z0-9]/gi, '_')}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  process.env.SVC_TEST_SERVER_URL = serverUrl;
  process.env.DATABASE_URL = url.toString();
  process.env.SVC_TEST_DATABASE = name;
  // A run on a primary and its streaming replica (npm run test:scaled-out) names the replica's
  // server as DATABASE_READ_URL: the services read lists from this database's copy there.
  if (process.env.DATABASE_READ_URL) {
    process.env.SVC_TEST_READ_SERVER_URL = process.env.DATABASE_READ_URL;
    const read = new URL(process.env.DATABASE_READ_URL);
    read.pathname = `/${name}`;
    process.env.DATABASE_READ_URL = read.toString();
    await testReplicaCaughtUp();
  }
  // Signing keys are sealed at rest: each run seals its own database's keys under KEKs of its own,
  // one per service, which its test processes and the services they start all share.
  process.env.IDP_SIGNING_KEY_KEK ??= randomBytes(32).toString('base64');
  process.env.ISSUER_SIGNING_KEY_KEK ??= randomBytes(32).toString('base64');
  // Keys the per-organization user ids wallet-verify answers and the identity provider resolves.
  process.env.PAIRWISE_SECRET ??= randomBytes(32).toString('base64');
}
