import { Worker } from 'node:worker_threads';
import { ServiceUnavailableError } from '@svc/http';

export type JobKind = 'sign' | 'verify';

interface Job {
  id: number;
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
 * requests. At most `size` jobs run at once; at most `queueLimit` wait. Beyond that callers get
 * 503 with Retry-After at once instead of an unbounded backlog.
 */
export class SigningPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly queueLimit: number,
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

  private release(worker: Worker): void {
    const next = this.queue.shift();
    if (next) {
      this.busy.set(worker, next);
      worker.postMessage({ id: next.id, kind: next.kind, payload: next.payload });
    } else {
      this.idle.push(worker);
    }
  }

  get pending(): number {
    return this.queue.length + this.busy.size;
  }

  run<T>(kind: JobKind, payload: unknown): Promise<T> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('The signing pool is shutting down', 1));
    if (this.queue.length >= this.queueLimit && this.idle.length === 0) {
      return Promise.reject(new ServiceUnavailableError('Too many credentials are being signed; try again shortly', 1, 'signing_queue_full'));
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id: this.nextId++, kind, payload, resolve: resolve as (v: unknown) => void, reject };
      const worker = this.idle.pop();
      if (worker) {
        this.busy.set(worker, job);
        worker.postMessage({ id: job.id, kind, payload });
      } else {
        this.queue.push(job);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new ServiceUnavailableError('The signing pool is shutting down', 1));
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }
}
