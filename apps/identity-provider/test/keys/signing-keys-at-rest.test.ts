import { describe, expect, it } from '@jest/globals';
import { arrange, buildIdp, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;
const tokens = (a: Awaited<ReturnType<typeof arrange>>, scope?: string) => issueTokens(app(), a, scope);

describe('signing keys are encrypted at rest', () => {
  it('keeps no private key material in the database, and still signs', async () => {
    const a = await arrange(suite.db);
    await tokens(a);
    const rows = await suite.db.signingKey.findMany({ where: { service: 'identity-provider' } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.privateKey).toMatchObject({ enc: 'envelope-v1' });
      expect(JSON.stringify(row.privateKey)).not.toMatch(/"(d|p|q|dp|dq|qi)":/);
    }
  });

  it('seals a key stored in plain text before encryption existed, the first time it is loaded', async () => {
    const { generateKey } = await import('@svc/signing-keys');
    const legacy = await generateKey('identity-provider');
    await suite.db.signingKey.create({ data: { ...legacy, service: 'identity-provider', status: 'retiring', publishUntil: new Date(Date.now() + 3_600_000) } });
    const fresh = buildIdp();
    try {
      await fresh.deps.signingKeys.signer();
      const row = await suite.db.signingKey.findUniqueOrThrow({ where: { kid: legacy.kid } });
      expect(row.privateKey).toMatchObject({ enc: 'envelope-v1' });
    } finally {
      await fresh.deps.close();
    }
  });
});
