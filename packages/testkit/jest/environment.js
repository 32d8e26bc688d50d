import { TestEnvironment } from 'jest-environment-node';

// What keeps a process alive (Node's own names): a socket still closing, a timer still running.
const LINGERING = ['TCPSocketWrap', 'TCPWrap', 'TLSWrap', 'Timeout', 'ProcessWrap'];
const DRAIN_MS = 3_000;

function counts() {
  const found = {};
  for (const type of process.getActiveResourcesInfo()) if (LINGERING.includes(type)) found[type] = (found[type] ?? 0) + 1;
  return found;
}

/** What the process still holds beyond its stdio and jest's channel: where each socket goes, each server, each child process, and the timers. */
function holding() {
  const described = process._getActiveHandles().flatMap((h) => {
    const kind = h?.constructor?.name ?? typeof h;
    if (kind === 'Socket' && h.remotePort) return [`a socket to ${h.remoteAddress}:${h.remotePort}`];
    if (kind === 'Socket') return []; // stdout, stderr and the IPC channel to jest
    if (kind === 'Server') return [`a server on ${JSON.stringify(h.address?.())}`];
    if (kind === 'ChildProcess') return [`child process ${h.pid} (${h.spawnfile})`];
    return [kind];
  });
  const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  return [...described, ...(timers ? [`${timers} timer(s)`] : [])];
}

// jest asks an idle worker to end by dropping its message listener, then waits 500 ms
// for the process to exit on its own before it kills it and prints "a worker process has failed to
// exit gracefully". A worker whose event loop is already empty can still take longer than that to
// exit on a busy machine (CI runs two suites at once): a natural exit tears the whole heap of a
// long-lived worker down (a suite of many files replaces its workers first: MANY_FILES), and nothing
// it held was to blame. So a worker (a child process with an IPC channel) watches for that request
// itself, names anything besides its stdio and jest's channel that is still open then (a leak the
// per-file teardown below did not catch), and exits at once with process.exit, which leaves the
// heap to the operating system.
// Only in a worker jest forked, which listens on its channel from the start: never in jest's own
// process (a run in band), which another tool may have started with a channel of its own.
if (typeof process.send === 'function' && process.env.JEST_WORKER_ID && process.listenerCount('message') > 0 && !globalThis.__svcWorkerExitWatch) {
  globalThis.__svcWorkerExitWatch = true;
  const watch = setInterval(() => {
    if (process.listenerCount('message') > 0) return;
    clearInterval(watch);
    const held = holding();
    if (held.length > 0) process.stderr.write(`jest worker ${process.pid}: asked to end while still holding ${held.join(', ')}\n`);
    process.exit(0);
  }, 20);
}

/**
 * The node environment, which lets a test file end only once what it opened has closed. A
 * worker is reused for file after file and asked to exit after the last one: anything still
 * closing then (a socket whose `quit` has answered but not yet ended, a pool's last connection)
 * makes jest force it out with "a worker process has failed to exit gracefully". Each file's
 * teardown waits, up to 3 s, until the worker holds no more than it did before the file started,
 * and names what is left when that does not happen: the file that leaks, not a warning at the end.
 */
export default class DrainingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    this.before = counts();
    await super.setup();
  }

  async teardown() {
    const deadline = Date.now() + DRAIN_MS;
    const excess = () => Object.entries(counts()).filter(([type, n]) => n > (this.before[type] ?? 0));
    while (excess().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const left = excess();
    if (left.length > 0)
      process.stderr.write(`${this.testPath}: still open ${DRAIN_MS / 1000} s after its last test: ${left.map(([t, n]) => `${n - (this.before[t] ?? 0)} ${t}`).join(', ')}\n`);
    await super.teardown();
  }
}
