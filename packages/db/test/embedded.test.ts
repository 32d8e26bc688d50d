import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/index.js';

const parent = mkdtempSync(join(tmpdir(), 'svc-embedded-'));
// As root the cluster runs as the `postgres` user, which must be able to enter the directory.
chmodSync(parent, 0o755);
const dataDir = join(parent, 'postgres');
let first: EmbeddedDatabase | undefined;
afterAll(async () => {
  await first?.stop();
  rmSync(parent, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function databaseName(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]!.name;
  } finally {
    await client.end();
  }
}

describe('the embedded cluster', () => {
  it('is reused on the port it runs on when another process already runs it, whatever port is asked for', async () => {
    const [started, asked] = [await freePort(), await freePort()];
    first = await startEmbeddedPostgres({ dataDir, port: started, database: 'one' });
    expect(first).toMatchObject({ owned: true, url: expect.stringContaining(`:${started}/one`) });

    const lines: string[] = [];
    const second = await startEmbeddedPostgres({ dataDir, port: asked, database: 'two', onLog: (line) => lines.push(line) });
    expect(second).toMatchObject({ owned: false, url: expect.stringContaining(`:${started}/two`) });
    expect(await databaseName(second.url)).toBe('two');
    expect(lines).toContain(`PostgreSQL already runs in ${dataDir} on port ${started}; using it`);
    // Not the owner: stopping it leaves the cluster to the process that started it.
    await second.stop();
    expect(await databaseName(first.url)).toBe('one');
  });
});
