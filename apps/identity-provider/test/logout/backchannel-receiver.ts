import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from '@jest/globals';

export interface Delivery {
  path: string;
  body: string;
}

/**
 * A back-channel logout receiver on this machine for the suite: a client registers
 * `${receiver.url()}/<its path>` and the test reads what it was told from `deliveredTo(path)`.
 */
export function useBackchannelReceiver(): { url: () => string; deliveredTo: (path: string) => Delivery[] } {
  let server: Server;
  let url = '';
  const received: Delivery[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url!, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: () => url, deliveredTo: (path) => received.filter((r) => r.path === path) };
}
