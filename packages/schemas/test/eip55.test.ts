import { describe, expect, it } from '@jest/globals';
import { checkAddress, toChecksumAddress, ZEvmAddress } from '../src/index.js';

// The test vectors of EIP-55 itself.
const VECTORS = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55', () => {
  it.each(VECTORS)('checksums and accepts %s', (address) => {
    expect(toChecksumAddress(address.slice(2).toLowerCase())).toBe(address);
    expect(checkAddress(address)).toEqual({ ok: true, address });
  });

  it.each([
    [undefined, 'missing', undefined],
    ['', 'missing', undefined],
    ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'prefix', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', 'prefix', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA', 'length', undefined],
    ['0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'characters', undefined],
    ['0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'checksum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', 'checksum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'checksum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    // ICAP and other forms that libraries accept are not addresses here.
    ['XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS', 'prefix', undefined],
  ])('refuses %j (%s), offering %s', (input, reason, expected) => {
    const result = checkAddress(input as string | undefined);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe(reason);
      expect(result.expected).toBe(expected);
      expect(result.message.length).toBeGreaterThan(10);
    }
  });

  it('is usable as a zod schema with the reason as the message', () => {
    expect(ZEvmAddress.safeParse(VECTORS[4]).success).toBe(true);
    const failed = ZEvmAddress.safeParse('0x123');
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.message).toBe('must have 40 hexadecimal digits after "0x", got 3');
  });
});
