import { describe, expect, it } from '@jest/globals';
import { buildIdp } from './helpers.js';

describe('IDP_SECRET must be a real secret', () => {
  it.each(['change-me-to-32-or-more-random-characters', 'x'.repeat(40)])('refuses %s at start-up', (secret) => {
    expect(() => buildIdp({ IDP_SECRET: secret })).toThrow(/IDP_SECRET/);
  });
});

describe('one Redis', () => {
  it('refuses REDIS_URL and REDIS_CLUSTER_NODES together, which would name two', () => {
    expect(() => buildIdp({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' })).toThrow(
      'REDIS_URL and REDIS_CLUSTER_NODES both name a Redis: give one of them',
    );
  });
});
