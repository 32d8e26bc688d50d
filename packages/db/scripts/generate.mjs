#!/usr/bin/env node
// Runs `prisma generate` without network access. The CLI insists on locating a schema-engine
// binary before generating, although the `prisma-client` generator never executes it; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at an existing file satisfies the check (see DESIGN.md, "Prisma here").
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = fileURLToPath(import.meta.url);
}
const cli = createRequire(import.meta.url).resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, 'generate'], { cwd: here, env, stdio: ['ignore', 'pipe', 'inherit'] });
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? '');
  process.exit(result.status ?? 1);
}
