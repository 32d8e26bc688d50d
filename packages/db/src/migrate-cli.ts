// `node packages/db/dist/migrate-cli.js`: applies pending migrations to DATABASE_URL and prints
// one JSON line; exits 1 with one line on stderr when it cannot. What a deployment's one-shot
// migration step (compose service, Kubernetes Job) runs before the services start.
import { migrate } from './migrate.js';

const url = process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  process.stderr.write('Invalid configuration: DATABASE_URL: must be a postgres or postgresql URL\n');
  process.exit(1);
}
try {
  const result = await migrate(url);
  process.stdout.write(`${JSON.stringify({ applied: result.applied, already_applied: result.alreadyApplied.length })}\n`);
} catch (err) {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
