import { loadOrExit, serve } from '@svc/http';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDeps } from './deps.js';
import { databaseMismatch } from './environment/database-mark.js';
import { startHousekeeping } from './jobs/housekeeping.js';
import { webhookDeliverer } from './webhook-outbox/deliverer.js';

const config = loadOrExit(() => loadConfig(process.env));
const deps = buildDeps(config);
// Never serve the other environment's database; one that cannot be reached yet is /ready's to report.
const mismatch = await databaseMismatch(deps.db, config.SVC_ENVIRONMENT).catch(() => undefined);
if (mismatch) {
  deps.logger.fatal(mismatch);
  await deps.close();
  process.exit(1);
}
// Make (on a fresh database) and load the signing key before taking traffic; if the database is
// not up yet, /ready says so and the first request that needs the key loads it.
await deps.signingKeys.signer().catch((err: unknown) => deps.logger.warn({ err }, 'signing key not loaded at start-up'));
// A credential issuer named by a client id that matches no live application can neither introspect
// wallets' tokens nor hear of their ended approvals: say so now, not when a credential outlives one.
if (config.credentialIssuer) {
  const client = await deps.db.application
    .findUnique({ where: { clientId: config.credentialIssuer.clientId }, select: { status: true } })
    .catch(() => undefined);
  if (client === null || client?.status === 'revoked')
    deps.logger.error(
      'CREDENTIAL_ISSUER_CLIENT_ID names no active application: the credential issuer cannot introspect wallets’ tokens or hear of ended approvals',
    );
}
if (config.mail.transport === 'outbox') deps.logger.info(`mail is not sent (no SMTP_URL): it is kept on ${config.issuer}/dev/outbox`);
// Background loops run in the server process only, and stop before the dependencies close.
const housekeeping = startHousekeeping(deps);
const webhooks = webhookDeliverer(deps).start();
const close = async () => {
  housekeeping.stop();
  await webhooks.stop();
  await deps.close();
};
await serve({ app: createApp(deps), port: config.PORT, host: config.HOST, logger: deps.logger, close });
