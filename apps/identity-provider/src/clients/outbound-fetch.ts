import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { ipv6Groups, mappedIpv4 } from '../limits/source-address.js';

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
  ['::', 127], // unspecified and loopback
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

export class InternalAddressError extends Error {
  override name = 'InternalAddressError';
}

const refused = (host: string, address: string) =>
  new InternalAddressError(`The client's jwks_uri host ${host} is at a private or internal address (${address}); it is never fetched`);

/**
 * dns.lookup that fails unless every address the name resolves to is public. It runs when the
 * connection is made, so the address checked is the address connected to: a name that resolves
 * to a public address at one moment and to an internal one at the next (DNS rebinding) gains nothing.
 */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const internal = addresses.find((a) => !isPublicAddress(a.address));
    if (internal) return callback(refused(hostname, internal.address), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * The fetch for every request to an address a client registered (its jwks_uri, as jose's
 * customFetch; its backchannel_logout_uri): it refuses private, loopback, link-local and reserved
 * addresses, checked on the resolved address, follows no redirect and reads at most 256 KiB of the
 * answer. `allowInternal` (JWKS_URI_ALLOW_PRIVATE) lifts the address check, for development
 * against a client on the same machine.
 */
export function outboundFetch(allowInternal: boolean) {
  return (
    href: string,
    init: { method?: 'GET' | 'POST'; body?: string; headers?: ConstructorParameters<typeof Headers>[0]; signal?: AbortSignal | null },
  ): Promise<Response> => {
    const url = new URL(href);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowInternal && isIP(literal) && !isPublicAddress(literal)) return Promise.reject(refused(url.hostname, literal));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        {
          method: init.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          ...(init.signal ? { signal: init.signal } : {}),
          ...(allowInternal ? {} : { lookup: publicOnlyLookup }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BYTES) return req.destroy(new Error(`The answer is larger than ${MAX_BYTES} bytes`));
            chunks.push(chunk);
          });
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 502, headers }));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
  };
}
