import { loadOrExit, serve } from '@svc/http';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDeps } from './deps.js';

const config = loadOrExit(() => loadConfig(process.env));
const deps = buildDeps(config);
await serve({ app: createApp(deps), port: config.PORT, host: config.HOST, logger: deps.logger, close: deps.close });
