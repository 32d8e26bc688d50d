// Which addresses an outbound request (a client's jwks_uri, a back-channel logout, a webhook) may
// reach: the public internet only, however an internal address is written.
import { describe, expect, it } from '@jest/globals';
import { isPublicAddress } from '../src/outbound-fetch.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local and metadata addresses in every IPv4 and IPv6 spelling', () => {
    for (const internal of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
      '2001:0:4136:e378::1', // Teredo
      'fe80::1',
      'fec0::1',
      'fd00:ec2::254',
      'not an address',
    ])
      expect([internal, isPublicAddress(internal)]).toEqual([internal, false]);
  });

  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2001:4860:4860::8888'])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });
});
