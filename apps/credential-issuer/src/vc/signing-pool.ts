import { Worker } from 'node:worker_threads';
import { signingJobTimedOut, signingPoolClosing, signingQueueFull } from './errors.js';

export type JobKind = 'sign' | 'derive' | 'verify' | 'verifyPresentation' | 'signStatusList';

interface Job {
  id: number;
  /** Whose job it is (an organization): each holds a bounded share, and waiting jobs are served round-robin across them. */
  tenant: string;
  kind: string;
  payload: unknown;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** One thread, and the job it runs; its deadline starts once the thread has loaded its libraries. */
interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job | undefined;
  timer?: NodeJS.Timeout | undefined;
  /** Terminated or crashed: whatever it still says is ignored. */
  gone: boolean;
}

/** The signing threads are shared per organization, whatever number of API keys it has: its tenant. */
export const tenantOf = (caller: { organizationId: string }) => `organization:${caller.organizationId}`;

/** A failure inside a worker (a malformed credential, a bad proof), with the worker's message. */
export class SigningJobError extends Error {
  override name = 'SigningJobError';
  constructor(
    readonly originalName: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SigningPoolOptions {
  /** Threads. */
  size: number;
  /** Jobs that may wait for a thread, in all. */
  queueLimit: number;
  /** Jobs one tenant may hold, waiting and running together. */
  perTenant: number;
  /** How long one job may run; past it the job fails and its thread is terminated and replaced. */
  jobTimeoutMs: number;
  /**
   * The worker script (vc/signing-worker.js; tests give one of their own). Named by the composition
   * root, not resolved here: in the image's bundle this file's code sits in dist/server.js, so only a
   * URL made beside the server points at dist/vc/signing-worker.js both there and in dist/.
   */
  workerUrl: URL;
}

type WorkerMessage = { ready: true } | { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { name: string; message: string } };

/**
 * BBS signing and verification in worker threads, so the event loop stays free for other
 * requests. The work is shared per tenant (an organization, whatever number of API keys it has):
 * - at most `size` jobs run at once, each for at most `jobTimeoutMs`: a job past its deadline fails
 *   and its thread is terminated and replaced, so no job holds a thread for long;
 * - at most `perTenant` jobs of one tenant are held (waiting or running), so one tenant cannot
 *   take every thread and the whole queue;
 * - at most `queueLimit` jobs wait, served round-robin across tenants; when the queue is full, a
 *   tenant holding fewer waiting jobs than the one holding the most takes that one's newest place
 *   (which is refused), so a tenant within its fair share always gets in.
 * Beyond the limits callers get 503 with Retry-After at once instead of an unbounded backlog.
 */
export class SigningPool {
  readonly size: number;
  private readonly queueLimit: number;
  private readonly perTenant: number;
  private readonly jobTimeoutMs: number;
  private readonly workerUrl: URL;
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  /** Waiting jobs per tenant, and the tenants with waiting jobs in round-robin order. */
  private readonly queues = new Map<string, Job[]>();
  private readonly turns: string[] = [];
  /** Jobs each tenant holds, waiting or running. */
  private readonly held = new Map<string, number>();
  private waiting = 0;
  private nextId = 1;
  private closed = false;
  /** Jobs stopped at their deadline (and so threads replaced), since start. */
  timedOut = 0;

  constructor(options: SigningPoolOptions) {
    this.size = options.size;
    this.queueLimit = options.queueLimit;
    this.perTenant = options.perTenant;
    this.jobTimeoutMs = options.jobTimeoutMs;
    this.workerUrl = options.workerUrl;
    for (let i = 0; i < this.size; i++) this.idle.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.workerUrl), ready: false, gone: false };
    this.slots.add(slot);
    slot.worker.on('message', (message: WorkerMessage) => {
      if (slot.gone) return;
      if ('ready' in message) {
        slot.ready = true;
        if (slot.job) this.startDeadline(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      this.finish(slot);
      if (message.ok) job.resolve(message.result);
      else job.reject(new SigningJobError(message.error.name, message.error.message));
      this.release(slot);
    });
    // A crashed worker fails its job and is replaced.
    const crashed = (err: Error) => {
      if (slot.gone) return;
      const job = slot.job;
      this.retire(slot);
      job?.reject(err);
      if (!this.closed) this.release(this.spawn());
    };
    slot.worker.on('error', crashed);
    slot.worker.on('exit', (code) => crashed(new Error(`A signing thread exited (${code})`)));
    slot.worker.unref();
    return slot;
  }

  private startDeadline(slot: Slot): void {
    slot.timer = setTimeout(() => this.expire(slot), this.jobTimeoutMs);
    slot.timer.unref();
  }

  /** A job past its deadline: it fails, and its thread (still busy with it) is terminated and replaced. */
  private expire(slot: Slot): void {
    const job = slot.job;
    if (slot.gone || !job) return;
    this.timedOut++;
    this.retire(slot);
    void slot.worker.terminate().catch(() => undefined);
    job.reject(signingJobTimedOut(this.jobTimeoutMs));
    if (!this.closed) this.release(this.spawn());
  }

  /** The slot's job is over: its deadline and its tenant's hold end. */
  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (slot.job) this.drop(slot.job.tenant);
    slot.job = undefined;
  }

  private retire(slot: Slot): void {
    this.finish(slot);
    slot.gone = true;
    this.slots.delete(slot);
    const at = this.idle.indexOf(slot);
    if (at >= 0) this.idle.splice(at, 1);
  }

  private hold(tenant: string): void {
    this.held.set(tenant, (this.held.get(tenant) ?? 0) + 1);
  }

  private drop(tenant: string): void {
    const n = (this.held.get(tenant) ?? 1) - 1;
    if (n > 0) this.held.set(tenant, n);
    else this.held.delete(tenant);
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.postMessage({ id: job.id, kind: job.kind, payload: job.payload });
    if (slot.ready) this.startDeadline(slot);
  }

  /** The next waiting job, taking tenants in turn. */
  private dequeue(): Job | undefined {
    const tenant = this.turns.shift();
    if (tenant === undefined) return undefined;
    const queue = this.queues.get(tenant)!;
    const job = queue.shift()!;
    this.waiting--;
    if (queue.length) this.turns.push(tenant);
    else this.queues.delete(tenant);
    return job;
  }

  private enqueue(job: Job): void {
    const queue = this.queues.get(job.tenant);
    if (queue) queue.push(job);
    else {
      this.queues.set(job.tenant, [job]);
      this.turns.push(job.tenant);
    }
    this.waiting++;
  }

  /**
   * With the queue full: the newest waiting job of the tenant that holds the most waiting places,
   * when that is more than `tenant` holds plus one (so two tenants never take turns evicting each other).
   */
  private evictFor(tenant: string): boolean {
    const own = this.queues.get(tenant)?.length ?? 0;
    let heaviest: Job[] | undefined;
    for (const [other, queue] of this.queues) if (other !== tenant && queue.length > (heaviest?.length ?? 0)) heaviest = queue;
    if (!heaviest || heaviest.length <= own + 1) return false;
    const evicted = heaviest.pop()!;
    this.waiting--;
    if (heaviest.length === 0) {
      this.queues.delete(evicted.tenant);
      this.turns.splice(this.turns.indexOf(evicted.tenant), 1);
    }
    this.drop(evicted.tenant);
    evicted.reject(signingQueueFull());
    return true;
  }

  private release(slot: Slot): void {
    const next = this.dequeue();
    if (next) this.dispatch(slot, next);
    else this.idle.push(slot);
  }

  get pending(): number {
    return this.waiting + [...this.slots].filter((s) => s.job).length;
  }

  run<T>(kind: JobKind, payload: unknown, tenant: string): Promise<T> {
    if (this.closed) return Promise.reject(signingPoolClosing());
    if ((this.held.get(tenant) ?? 0) >= this.perTenant) return Promise.reject(signingQueueFull('tenant'));
    if (this.idle.length === 0 && this.waiting >= this.queueLimit && !this.evictFor(tenant)) return Promise.reject(signingQueueFull());
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id: this.nextId++, tenant, kind, payload, resolve: resolve as (v: unknown) => void, reject };
      this.hold(tenant);
      const slot = this.idle.pop();
      if (slot) this.dispatch(slot, job);
      else this.enqueue(job);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const waiting = [...this.queues.values()].flat();
    this.queues.clear();
    this.turns.length = 0;
    this.waiting = 0;
    for (const job of waiting) job.reject(signingPoolClosing());
    const slots = [...this.slots];
    for (const slot of slots) {
      const job = slot.job;
      this.retire(slot);
      job?.reject(signingPoolClosing());
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
