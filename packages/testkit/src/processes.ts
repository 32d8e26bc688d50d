import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { withTestReplica } from './replica-run.js';

// From packages/testkit/{src,dist}/ to the repository root.
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const SERVICES = ['identity-provider', 'wallet-verify', 'credential-issuer'] as const;
export type Service = (typeof SERVICES)[number];

// Ports for servers a test starts later (a child process, a launcher). Binding port 0 and handing
// the number out races: the kernel gives the same ephemeral range to every `listen(0)` (supertest
// does one per request) and to outgoing connections, so the port can be taken again before the
// child binds it. Below the ephemeral range (Linux: 32768-60999) only callers of this function
// compete; each process starts at a random point and walks on, so two suites rarely meet, and a
// port still bound elsewhere is skipped by the check.
const PORT_RANGE = { first: 20_000, last: 32_000 };
let nextPort = PORT_RANGE.first + Math.floor(Math.random() * (PORT_RANGE.last - PORT_RANGE.first));

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_RANGE.last - PORT_RANGE.first; tries++) {
    const port = nextPort;
    nextPort = port >= PORT_RANGE.last ? PORT_RANGE.first : port + 1;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${PORT_RANGE.first} and ${PORT_RANGE.last}`);
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Environment without the run's own database and Redis settings, for processes that choose their
 * own; a DATABASE_URL of the run's comes with its replica's copy when the run has one.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_READ_URL', 'REDIS_URL', 'NODE_OPTIONS', 'JEST_WORKER_ID']) delete env[name];
  return withTestReplica({ ...env, ...extra });
}

/** `detached` gives the process a group of its own, so a test can signal it as a terminal would. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, detached = false, cwd = repoRoot): Running {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export function startServer(service: Service, env: NodeJS.ProcessEnv): Running {
  return run(process.execPath, [`${repoRoot}apps/${service}/dist/server.js`], env);
}

export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, what: string, output?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${output ? `\n${output()}` : ''}`);
}

export async function isListening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/health`).then(
    () => true,
    () => false,
  );
}

export interface StartedService {
  url: string;
  port: number;
  running: Running;
  stop(): Promise<void>;
}

/**
 * A built service as a real process on 127.0.0.1 (a free port), as integrators meet it; resolves
 * once /health answers. `env` adds to a clean environment: give DATABASE_URL and the like.
 */
export async function startService(service: Service, env: NodeJS.ProcessEnv): Promise<StartedService> {
  const port = Number(env.PORT ?? (await freePort()));
  const running = startServer(service, cleanEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) }));
  await waitFor(() => isListening(port), 30_000, `${service} to listen on ${port}`, running.output);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    running,
    stop: async () => {
      if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
      await running.exited;
    },
  };
}
