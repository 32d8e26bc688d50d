import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (zone dropped, embedded IPv4 read), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  const plain = address.replace(/%.*$/, '');
  if (!isIPv6(plain)) return undefined;
  let text = plain.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) stands for, or undefined. */
export function mappedIpv4(groups: number[]): string | undefined {
  if (groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return undefined;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
}

/**
 * The source a per-address limit counts: an IPv4 address as it is (also when it arrives
 * IPv4-mapped), an IPv6 address by its /64, the smallest prefix a single subscriber is usually
 * given (RFC 6177): counting each of its 2^64 addresses apart would let one host rotate past any
 * limit.
 */
export function limitSource(address: string | undefined): string {
  if (!address) return 'unknown';
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const prefix = groups.slice(0, 4).map((g) => g.toString(16));
  return mappedIpv4(groups) ?? `${prefix.join(':')}::/64`;
}
