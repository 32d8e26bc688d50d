// A local load balancer in front of service replicas, as a deployment has one: HAProxy (Debian's
// `haproxy` package) in HTTP mode, round robin, keeping its connections to the replicas open.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isListening, waitFor } from '@svc/testkit/processes';
import { freePort, running } from './lib.mjs';

/** HAProxy on a free port of 127.0.0.1, balancing over `urls` (http://127.0.0.1:port each). */
export async function startBalancer(urls) {
  if (spawnSync('haproxy', ['-v']).error) throw new Error('haproxy is not installed: apt-get install haproxy');
  const port = await freePort();
  const servers = urls.map((url, i) => `  server r${i} ${new URL(url).host}`).join('\n');
  const config = join(mkdtempSync(join(tmpdir(), 'bench-haproxy-')), 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  maxconn 4096
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
  option http-keep-alive
  http-reuse always
frontend bench
  bind 127.0.0.1:${port}
  default_backend replicas
backend replicas
  balance roundrobin
${servers}
`,
  );
  const child = spawn('haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitFor(() => isListening(port), 10_000, `haproxy to listen on ${port}`);
  return running(child, port);
}
