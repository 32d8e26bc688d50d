import type { Express } from 'express';
import { createBaseApp, finishApp, healthRouter } from '@svc/http';
import type { AppDeps } from './deps.js';
import { discoveryRouter } from './routes/discovery.routes.js';

export function createApp(deps: AppDeps): Express {
  const app = createBaseApp({ logger: deps.logger, bodyLimit: deps.config.BODY_LIMIT, trustProxy: deps.config.TRUST_PROXY });
  app.use(healthRouter({ version: deps.version, commit: deps.config.GIT_COMMIT ?? null, checks: deps.checks }));
  app.use(discoveryRouter(deps));
  return finishApp(app);
}
