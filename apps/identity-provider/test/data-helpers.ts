import { addCredential } from '@svc/admin';
import type { Db } from '@svc/db';
import request from 'supertest';
import { arrange, basic, type buildIdp, obtainCode, REDIRECT, signIn } from './helpers.js';

type App = ReturnType<typeof buildIdp>['app'];

const day = 86_400_000;
export const KYC_EXPIRES = new Date(Date.now() + 30 * day);

/**
 * A user with a spread of credentials (valid, pending, revoked, expired, malformed), a client
 * allowed every scope, and an access token for `scope`.
 */
export async function arrangeData(db: Db, app: App, options: { scope: string; presetCacheTtl?: number; accessTokenTtl?: number }) {
  const a = await arrange(db, {
    scopes: 'openid identity:read identity:date_of_birth identity:legal_name profile.full kyc:read financial:read financial:net_worth data.read',
    ...options,
  });
  const email = a.user.email;
  const ids = {
    kyc: (
      await addCredential(a.ctx, {
        email,
        source: 'kyc_provider',
        claims: JSON.stringify({ date_of_birth: '1990-04-12', nationality: 'DE', country_of_residence: 'DE', kyc_passed: true, document_country: 'DE' }),
        expiresAt: KYC_EXPIRES.toISOString(),
      })
    ).id,
    bank: (await addCredential(a.ctx, { email, source: 'bank_link', claims: JSON.stringify({ net_worth_total: 150_000, proof_of_assets: true }) })).id,
    social: (
      await addCredential(a.ctx, {
        email,
        source: 'social_link',
        claims: JSON.stringify({
          social_accounts: [
            { provider: 'github', handle: 'alice', verified: true },
            { provider: 'x', handle: 'ax', verified: false },
          ],
        }),
      })
    ).id,
  };
  await addCredential(a.ctx, { email, source: 'phone_check', claims: JSON.stringify({ phone: '+4930123456' }), status: 'pending' });
  await addCredential(a.ctx, { email, source: 'email_check', claims: JSON.stringify({ email: 'alice@example.org' }), status: 'revoked' });
  await addCredential(a.ctx, {
    email,
    source: 'old_check',
    claims: JSON.stringify({ residency_region: 'EU' }),
    expiresAt: new Date(Date.now() - day).toISOString(),
  });
  // Malformed data as it might come from elsewhere (the admin CLI refuses it): written directly.
  await a.ctx.db.userCredential.create({ data: { userId: a.user.id, source: 'score', claims: { service_score: 'high' } } });
  const session = await signIn(app, email, a.user.password);
  const { code, verifier, authorizationId } = await obtainCode(app, a.confidential.client_id, session, { scope: options.scope });
  const token = await request(app)
    .post('/oauth/token')
    .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
    .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
  return { ...a, ids, session, authorizationId, accessToken: token.body.access_token as string, refreshToken: token.body.refresh_token as string };
}
