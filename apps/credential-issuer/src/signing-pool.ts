import { Worker } from 'node:worker_threads';
import { signingPoolClosing, signingQueueFull } from './errors.js';

export type JobKind = 'sign' | 'derive' | 'verify' | 'verifyPresentation' | 'signStatusList';

interface Job {
  id: number;
  /** Whose job it is (an API key): waiting jobs are served round-robin across keys. */
  tenant: string;
  kind: JobKind;
  payload: unknown;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

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

/**
 * BBS signing and verification in worker threads, so the event loop stays free for other
 * requests. At most `size` jobs run at once; at most `queueLimit` wait, and at most `perTenant` of
 * them from one API key. Waiting jobs are served round-robin across keys, so a key that floods the
 * pool waits behind its own jobs while other keys' jobs go next. Beyond the limits callers get 503
 * with Retry-After at once instead of an unbounded backlog.
 */
export class SigningPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  /** Waiting jobs per tenant, and the tenants with waiting jobs in round-robin order. */
  private readonly queues = new Map<string, Job[]>();
  private readonly turns: string[] = [];
  private waiting = 0;
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly queueLimit: number,
    private readonly perTenant = queueLimit,
  ) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./vc/signing-worker.js', import.meta.url));
    worker.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: { name: string; message: string } }) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      if (job && job.id === message.id) {
        if (message.ok) job.resolve(message.result);
        else job.reject(new SigningJobError(message.error!.name, message.error!.message));
      }
      this.release(worker);
    });
    worker.on('error', (err) => {
      // A crashed worker fails its job and is replaced.
      this.busy.get(worker)?.reject(err);
      this.busy.delete(worker);
      if (!this.closed) this.release(this.spawn());
    });
    worker.unref();
    return worker;
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

  private release(worker: Worker): void {
    const next = this.dequeue();
    if (next) {
      this.busy.set(worker, next);
      worker.postMessage({ id: next.id, kind: next.kind, payload: next.payload });
    } else {
      this.idle.push(worker);
    }
  }

  get pending(): number {
    return this.waiting + this.busy.size;
  }

  run<T>(kind: JobKind, payload: unknown, tenant = ''): Promise<T> {
    if (this.closed) return Promise.reject(signingPoolClosing());
    const queue = this.queues.get(tenant);
    if (this.idle.length === 0 && (this.waiting >= this.queueLimit || (queue?.length ?? 0) >= this.perTenant)) {
      return Promise.reject(signingQueueFull());
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id: this.nextId++, tenant, kind, payload, resolve: resolve as (v: unknown) => void, reject };
      const worker = this.idle.pop();
      if (worker) {
        this.busy.set(worker, job);
        worker.postMessage({ id: job.id, kind, payload });
      } else if (queue) {
        queue.push(job);
        this.waiting++;
      } else {
        this.queues.set(tenant, [job]);
        this.turns.push(tenant);
        this.waiting++;
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const waiting = [...this.queues.values()].flat();
    this.queues.clear();
    this.turns.length = 0;
    this.waiting = 0;
    for (const job of waiting) job.reject(signingPoolClosing());
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }
}
