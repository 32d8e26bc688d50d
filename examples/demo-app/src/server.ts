import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { EventLog, registerReceiver } from './webhooks.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}
const events = new EventLog();
const server = createApp({ config, events }).listen(config.port, config.host, () => {
  process.stdout.write(`demo app on http://localhost:${config.port} (signs in through ${config.issuer})\n`);
  if (config.developer) void register(config.developer);
});

/** As the organization's developer would: its receiver registered at the identity provider (which may still be starting). */
async function register(developer: { email: string; password: string }) {
  for (let attempt = 1; ; attempt++) {
    try {
      events.secret = await registerReceiver(config.issuer, developer, `http://localhost:${config.port}/webhooks`);
      return;
    } catch (err) {
      if (attempt === 10) return void process.stderr.write(`demo app: webhooks not registered (${(err as Error).message})\n`);
      await new Promise((r) => setTimeout(r, 1_000).unref());
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
