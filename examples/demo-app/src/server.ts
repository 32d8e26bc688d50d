import { createApp } from './app.js';
import { loadConfig } from './config.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}
const server = createApp({ config }).listen(config.port, config.host, () => {
  process.stdout.write(`demo app on http://localhost:${config.port} (signs in through ${config.issuer})\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
