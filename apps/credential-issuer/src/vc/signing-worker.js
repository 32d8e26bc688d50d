// One signing thread: takes jobs from the pool (signing-pool.ts) and answers each by id.
// Why src/vc/ stays JavaScript: this file and what it imports run in worker threads that Node.js
// loads by URL (signing-pool.ts), not through the test runner's transform, so under jest they run
// straight from src/ with no build step, and from dist/ as tsc emits them (allowJs). They
// are type-checked all the same: checkJs, with JSDoc types.
import { parentPort } from 'node:worker_threads';
import { deriveCredential, signRequested, signStatusList, verifyCredentialFacts } from './bbs.js';
import { verifyPresentation } from './presentations.js';

/** @type {Record<string, (payload: any) => Promise<unknown>>} */
// `sign` and `verify` are the checked forms: members judged by the issuer are read from, and
// must agree with, the signed data (./signed-facts.js).
const jobs = { sign: signRequested, derive: deriveCredential, verify: verifyCredentialFacts, verifyPresentation, signStatusList };
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
// Its libraries are loaded (the imports above): the pool starts the deadline of a job from here.
port.postMessage({ ready: true });
