import { describe, expect, it } from '@jest/globals';
import { limitSource } from '../src/source-address.js';

describe('limitSource (the source address a per-address limit counts)', () => {
  it('counts an IPv6 address by its /64', () => {
    expect(limitSource('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(limitSource('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limitSource('2001:DB8:1:2:0:0:0:ffff')).toBe('2001:db8:1:2::/64');
    expect(limitSource('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(limitSource('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitSource('::1')).toBe('0:0:0:0::/64');
    expect(limitSource('2001:db8:1:3::1')).not.toBe(limitSource('2001:db8:1:2::1'));
  });

  it('counts an IPv4 address, also IPv4-mapped, as itself', () => {
    expect(limitSource('203.0.113.7')).toBe('203.0.113.7');
    expect(limitSource('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitSource('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('leaves anything else as it is', () => {
    expect(limitSource(undefined)).toBe('unknown');
    expect(limitSource('not-an-address')).toBe('not-an-address');
  });
});
