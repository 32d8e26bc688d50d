import { describe, expect, it } from '@jest/globals';
import { redirectUriMatches } from './redirect-uris.js';

describe('redirectUriMatches', () => {
  it('matches exactly, and loopback IPs on any port', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1:8080/cb'];
    expect(redirectUriMatches(registered, 'https://app.example/cb')).toBe(true);
    expect(redirectUriMatches(registered, 'https://app.example:8443/cb')).toBe(false);
    expect(redirectUriMatches(registered, 'http://127.0.0.1/cb')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:9/cb')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:9/cb/')).toBe(false);
  });
});
