import { loadOrExit, serve } from '@svc/http';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDeps } from './deps.js';
import { startWalletJobs } from './openid4vci/jobs.js';
import { startPresentationPurge } from './openid4vp/requests/purge.js';

const config = loadOrExit(() => loadConfig(process.env));
const deps = buildDeps(config);
// Make (on a fresh database) and load the signing key before taking traffic; if the database is
// not up yet, /ready says so and the first request that needs the key loads it.
await deps.issuerKeys.current().catch((err: unknown) => deps.logger.warn({ err }, 'signing key not loaded at start-up'));
// Background loops run in the server process only, and stop before the dependencies close.
const stopWalletJobs = startWalletJobs(deps);
const stopPresentationPurge = startPresentationPurge(deps.db, () => deps.clock.now(), config.PRESENTATION_RESULTS_KEPT_SECONDS * 1000, deps.logger);
const close = async () => {
  stopWalletJobs();
  stopPresentationPurge();
  await deps.close();
};
await serve({ app: createApp(deps), port: config.PORT, host: config.HOST, logger: deps.logger, close });
