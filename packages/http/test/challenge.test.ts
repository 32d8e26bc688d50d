import { describe, expect, it } from '@jest/globals';
import { asciiHeaderText, authChallenge } from '../src/challenge.js';

describe('authChallenge', () => {
  it('quotes each parameter as visible ASCII, escaping quotes and backslashes', () => {
    expect(authChallenge('DPoP', { error: 'invalid_dpop_proof', error_description: 'The proof’s "ath" is C:\\wrong — café', algs: 'ES256 RS256' })).toBe(
      'DPoP error="invalid_dpop_proof", error_description="The proof\'s \\"ath\\" is C:\\\\wrong - cafe", algs="ES256 RS256"',
    );
  });

  it('omits undefined parameters, and is the bare scheme with none', () => {
    expect(authChallenge('Bearer', { realm: 'svc', error: undefined })).toBe('Bearer realm="svc"');
    expect(authChallenge('Basic')).toBe('Basic');
  });
});

describe('asciiHeaderText', () => {
  it('leaves nothing Node would refuse in a header', () => {
    const text = asciiHeaderText('line\r\nbreak\ttab 你好 ✓ ’');
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).toBe("line  break tab ?? ? '");
  });
});
