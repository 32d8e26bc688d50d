// One signing thread: takes jobs from the pool (signing-pool.ts) and answers each by id.
import { parentPort } from 'node:worker_threads';
import { signCredential, verifyCredential } from './bbs.js';

const jobs = { sign: signCredential, verify: verifyCredential };

parentPort.on('message', async ({ id, kind, payload }) => {
  try {
    parentPort.postMessage({ id, ok: true, result: await jobs[kind](payload) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: { name: err?.name ?? 'Error', message: err?.message ?? String(err) } });
  }
});
