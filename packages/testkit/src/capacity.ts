// Jest only (it asserts with expect): the capacity model's inputs, measured. Each service's
// test/capacity/round-trips.test.ts counts the PostgreSQL statements and Redis commands each of its
// hot paths costs per request once its caches are warm, and holds infra/README.md ("Capacity model")
// to them, so the page cannot drift from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { countStatements } from '@svc/db';
import { testRedisUrl } from './index.js';
import { repoRoot } from './processes.js';

/** The services as the table's first column names them. */
export type CapacityService = 'identity provider' | 'wallet verify' | 'credential issuer';

/** Statements and commands per request. */
export type Cost = [statements: number, commands: number];

/** One row of the table: the request, and (uncounted) what each request needs made before it. */
export interface HotPath<T = unknown> {
  /** As the table's path column writes it. */
  path: string;
  /** Made before the path's requests are counted, one per request (a fresh offer, say). */
  arrange?: () => Promise<T>;
  send: (arranged: T) => PromiseLike<{ status: number; body?: unknown }>;
}

/** A hot path whose requests need something made first, typed from that something. */
export function hotPath<T>(path: string, arrange: () => Promise<T>, send: (arranged: T) => PromiseLike<{ status: number; body?: unknown }>): HotPath {
  return { path, arrange, send: send as HotPath['send'] };
}

/** The table's rows for one service: path → [statements, commands]. */
export function documentedCapacity(service: CapacityService): Map<string, Cost> {
  const page = readFileSync(join(repoRoot, 'infra', 'README.md'), 'utf8');
  const table = page.slice(page.indexOf('<!-- capacity:begin -->'), page.indexOf('<!-- capacity:end -->'));
  const rows = [...table.matchAll(/^\| ([a-z ]+) \| `([^`]+)` \| [^|]* \| (\d+) \| (\d+) \|$/gm)];
  return new Map(rows.filter((r) => r[1] === service).map((r) => [r[2]!, [Number(r[3]), Number(r[4])]]));
}

/** Redis commands sent by a service's store (its `deps.store`), counted where it sends them; 0 for the in-process store. */
export function countRedisCommands(store: { readonly kind: string }): () => number {
  if (store.kind !== 'redis') return () => 0;
  const redis = (store as unknown as { redis: { sendCommand: (...args: unknown[]) => unknown } }).redis;
  let sent = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (...args: unknown[]) => {
    sent++;
    return send(...args);
  };
  return () => sent;
}

/**
 * Each path's cost per request: three requests warm its caches (and prepared statements), then
 * `rounds` are counted and averaged, so a write batched across requests rounds away.
 */
export async function measureHotPaths(store: { readonly kind: string }, paths: HotPath[], rounds = 20): Promise<Map<string, Cost>> {
  const counter = countStatements();
  const commands = countRedisCommands(store);
  const measured = new Map<string, Cost>();
  for (const { path, arrange, send } of paths) {
    const arranged: unknown[] = [];
    for (let i = 0; i < rounds + 3; i++) arranged.push(await arrange?.());
    for (const made of arranged.splice(0, 3)) expectAnswered(path, await send(made));
    const [statements, sent] = [counter.statements(), commands()];
    if (process.env.LOG_STATEMENTS) process.stderr.write(`PATH ${path}\n`);
    for (const made of arranged) expectAnswered(path, await send(made));
    measured.set(path, [Math.round((counter.statements() - statements) / rounds), Math.round((commands() - sent) / rounds)]);
  }
  return measured;
}

/** A request that failed would measure its failure: its path, status and body say which. */
function expectAnswered(path: string, res: { status: number; body?: unknown }): void {
  const ok = res.status >= 200 && res.status < 300;
  expect({ path, status: res.status, body: ok ? undefined : res.body }).toEqual({ path, status: ok ? res.status : 200, body: undefined });
}

/**
 * The page says what was measured, path for path, and names no path that was not; Redis is held to
 * it where the run has one (CI): the embedded default keeps its state in-process.
 */
export function expectDocumented(service: CapacityService, measured: Map<string, Cost>): void {
  const redis = testRedisUrl() !== undefined;
  const rows = (costs: Map<string, Cost>) =>
    Object.fromEntries([...costs].map(([path, [statements, commands]]) => [path, redis ? { statements, commands } : { statements }]));
  expect(rows(measured)).toEqual(rows(documentedCapacity(service)));
}
