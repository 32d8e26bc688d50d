import { TestEnvironment } from 'jest-environment-node';

// What keeps a process alive (Node's own names): a socket still closing, a timer still running.
const LINGERING = ['TCPSocketWrap', 'TCPWrap', 'TLSWrap', 'Timeout', 'ProcessWrap'];
const DRAIN_MS = 3_000;

function counts() {
  const found = {};
  for (const type of process.getActiveResourcesInfo()) if (LINGERING.includes(type)) found[type] = (found[type] ?? 0) + 1;
  return found;
}

/** What the process still holds, with where each socket goes and what each timer runs (Node's own handles). */
function holding() {
  const described = process._getActiveHandles().map((h) => {
    const kind = h?.constructor?.name ?? typeof h;
    if (kind === 'Socket' && h.remotePort) return `Socket to ${h.remoteAddress}:${h.remotePort}${h.destroyed ? ' (destroyed)' : ''}`;
    if (kind === 'Server') return `Server on ${JSON.stringify(h.address?.())}`;
    if (kind === 'Timeout') return `Timeout ${h._idleTimeout} ms${h.hasRef?.() ? '' : ' (unref)'}: ${String(h._onTimeout).slice(0, 80).replace(/\s+/g, ' ')}`;
    if (kind === 'ChildProcess') return `ChildProcess ${h.spawnfile} ${h.pid}`;
    return kind;
  });
  return [...described, ...process.getActiveResourcesInfo().filter((r) => !LINGERING.includes(r) && r !== 'TTYWrap')].join('; ') || 'nothing';
}

// Issue #25: jest asks an idle worker to end by dropping its message listener, then waits 500 ms
// for the process to exit on its own before it kills it (SIGTERM, then SIGKILL) and reports only
// "a worker process has failed to exit gracefully". A worker (a child process with an IPC channel)
// watches for that moment and says what still holds it 400 ms later, and how long its exit took,
// so the log names the cause. Nothing is printed when the worker exits in time.
if (typeof process.send === 'function' && !globalThis.__svcWorkerExitWatch) {
  globalThis.__svcWorkerExitWatch = true;
  const say = (line) => process.stderr.write(`jest worker ${process.pid}: ${line}\n`);
  let endedAt;
  const watch = setInterval(() => {
    if (endedAt !== undefined || process.listenerCount('message') > 0) return;
    endedAt = Date.now();
    clearInterval(watch);
    setTimeout(() => say(`still running 400 ms after jest asked it to end, holding: ${holding()}`), 400).unref();
  }, 25);
  watch.unref();
  process.once('SIGTERM', () => {
    say(`killed by jest ${endedAt === undefined ? 'before it was asked to end' : `${Date.now() - endedAt} ms after it was asked to end`}, holding: ${holding()}`);
    process.exit(143);
  });
  process.once('exit', () => {
    if (endedAt !== undefined && Date.now() - endedAt > 300) say(`exited ${Date.now() - endedAt} ms after jest asked it to end`);
  });
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
