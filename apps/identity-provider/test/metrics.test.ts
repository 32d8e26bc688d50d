import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrangeData } from './data-helpers.js';
import { basic, buildIdp, useIdp } from './helpers.js';

const suite = useIdp();

/** The value of one sample in the Prometheus text format, or 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('GET /metrics', () => {
  it('counts tokens issued and revoked, and preset cache hits and misses', async () => {
    const idp = buildIdp();
    try {
      const d = await arrangeData(suite.db, idp.app, { scope: 'openid identity:read' });
      const read = () =>
        request(idp.app)
          .post('/v2/presets/batch')
          .set('Authorization', `Bearer ${d.accessToken}`)
          .send({ presets: ['age_over_18'] });
      await read();
      await read();
      await request(idp.app)
        .post('/oauth/revoke')
        .set('Authorization', basic(d.confidential.client_id, d.confidential.client_secret!))
        .send({ token: d.accessToken });
      const text = (await request(idp.app).get('/metrics')).text;
      expect(sample(text, 'tokens_issued_total', 'grant="authorization_code"')).toBe(1);
      expect(sample(text, 'tokens_revoked_total', 'subject="access_token"')).toBe(1);
      expect(sample(text, 'preset_cache_lookups_total', 'outcome="miss"')).toBe(1);
      expect(sample(text, 'preset_cache_lookups_total', 'outcome="hit"')).toBe(1);
      expect(sample(text, 'http_requests_total', 'method="POST",route="/v2/presets/batch",status="200"')).toBe(2);
    } finally {
      await idp.deps.close();
    }
  });
});
