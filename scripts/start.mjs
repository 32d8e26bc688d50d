#!/usr/bin/env node
// `npm start` runs `node scripts/start.mjs --build`: builds what changed (quietly: turbo's own
// output only when the build fails), then launches the stack (./launcher.mjs). Without --build it
// launches what is built, as the launcher's tests do.
import { spawnSync } from 'node:child_process';

if (process.argv.includes('--build')) {
  const started = Date.now();
  process.stdout.write('[start] building the services… ');
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    encoding: 'utf8',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  });
  if (build.status !== 0) {
    process.stdout.write(`failed:\n${build.stdout}${build.stderr}`);
    process.exit(build.status ?? 1);
  }
  process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
await import('./launcher.mjs');
