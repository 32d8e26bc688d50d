import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Logger } from './logger.js';
import { ipv6Groups, mappedIpv4 } from './source-address.js';

// Addresses a client's jwks_uri must never reach: this host, private networks, link-local (where
// cloud metadata services answer, 169.254.169.254 and fd00:ec2::254), shared and reserved space.
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::a.b.c.d, deprecated: it may still route to a.b.c.d)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: an IPv4 address inside
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside (2002:a9fe:a9fe:: is 169.254.169.254)
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a translator
  ['64:ff9b:1::', 48],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP literal) is on the public internet: not private, loopback, link-local or reserved. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !INTERNAL.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  const v4 = groups && mappedIpv4(groups);
  return v4 ? !INTERNAL.check(v4, 'ipv4') : !INTERNAL.check(address, 'ipv6');
}

const MAX_BYTES = 256 * 1024;
// Statuses whose answer has no body: a Response made with one (even empty) throws.
const NO_BODY = new Set([101, 204, 205, 304]);

export class InternalAddressError extends Error {
  override name = 'InternalAddressError';
}

/**
 * The refusal a caller reads names the host it gave, never the address the host resolved to: that
 * would tell anyone who registers a name what an internal network holds. The server log keeps it.
 */
const refused = (what: string, host: string, address: string, log: Logger | undefined) => {
  log?.warn({ host, address }, `${what}: refused, the host is at a private or internal address`);
  return new InternalAddressError(`${what} could not be fetched: its host ${host} is at a private or internal address, which is never fetched`);
};

/**
 * dns.lookup that fails unless every address the name resolves to is public. It runs when the
 * connection is made, so the address checked is the address connected to: a name that resolves
 * to a public address at one moment and to an internal one at the next (DNS rebinding) gains nothing.
 */
const publicOnlyLookup =
  (what: string, log: Logger | undefined) =>
  (hostname: string, options: LookupOptions, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const internal = addresses.find((a) => !isPublicAddress(a.address));
      if (internal) return callback(refused(what, hostname, internal.address, log), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

export interface OutboundOptions {
  /** What is fetched, for the refusal's message: "The client's jwks_uri". */
  what?: string;
  /** The most of an answer's body read. */
  maxBytes?: number;
  /** Past `maxBytes`: fail (a key set cut short is no key set), or answer with what was read (a webhook receiver's status is what counts). */
  overflow?: 'error' | 'truncate';
  /** Where a refused internal address is logged (the caller's error does not name it). */
  log?: Logger;
}

export type OutboundFetch = ReturnType<typeof outboundFetch>;

/**
 * The fetch for every request to an address someone else chose (a client's jwks_uri, as jose's
 * customFetch; its backchannel_logout_uri; a webhook endpoint; a presented credential's status
 * list): it refuses private, loopback, link-local and reserved
 * addresses, checked on the resolved address, follows no redirect and reads at most 256 KiB of the
 * answer. `allowInternal` (JWKS_URI_ALLOW_PRIVATE and its kin) lifts the address check, for
 * development against a party on the same machine.
 */
export function outboundFetch(allowInternal: boolean, { what = "The client's jwks_uri", maxBytes = MAX_BYTES, overflow = 'error', log }: OutboundOptions = {}) {
  const answer = (status: number, headers: Headers, chunks: Buffer[]) => new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers });
  return (
    href: string,
    init: { method?: 'GET' | 'POST'; body?: string; headers?: ConstructorParameters<typeof Headers>[0]; signal?: AbortSignal | null },
  ): Promise<Response> => {
    const url = new URL(href);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowInternal && isIP(literal) && !isPublicAddress(literal)) return Promise.reject(refused(what, url.hostname, literal, log));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        {
          method: init.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          ...(init.signal ? { signal: init.signal } : {}),
          ...(allowInternal ? {} : { lookup: publicOnlyLookup(what, log) }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
          const status = res.statusCode ?? 502;
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= maxBytes) return void chunks.push(chunk);
            if (overflow === 'error') return req.destroy(new Error(`The answer is larger than ${maxBytes} bytes`));
            resolve(answer(status, headers, chunks));
            req.destroy();
          });
          res.on('end', () => resolve(answer(status, headers, chunks)));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
  };
}
