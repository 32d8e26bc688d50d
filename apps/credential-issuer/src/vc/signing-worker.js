// One signing thread: takes jobs from the pool (signing-pool.ts) and answers each by id.
import { parentPort } from 'node:worker_threads';
import { deriveCredential, signCredential, signStatusList, verifyCredential } from './bbs.js';
import { verifyPresentation } from './presentations.js';

/** @type {Record<string, (payload: any) => Promise<unknown>>} */
const jobs = { sign: signCredential, derive: deriveCredential, verify: verifyCredential, verifyPresentation, signStatusList };
// This file only ever runs as a worker thread.
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

port.on('message', async (/** @type {{ id: number, kind: string, payload: unknown }} */ { id, kind, payload }) => {
  try {
    port.postMessage({ id, ok: true, result: await /** @type {(payload: unknown) => Promise<unknown>} */ (jobs[kind])(payload) });
  } catch (err) {
    const e = /** @type {{ name?: string, message?: string } | undefined} */ (err);
    port.postMessage({ id, ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(err) } });
  }
});
