// Batch issuance (OpenID4VCI 1.0 batch_credential_issuance, as HAIP wallets ask): one request with
// several proofs answers as many copies, each bound to its own key with its own salts, jti and
// status entry, listed as one record that revokes them all. Then the notification endpoint (§11).
import { describe, expect, it } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { SUBJECT } from '../helpers.js';
import { AGE, apiToken, credentialRequest, issuer, nonce, now, offered, proof, tokenFor, url, useRunningIssuer } from './running-issuer.js';
import { newHolder, present, verifyByCertificate, walletClient } from './wallet.js';

useRunningIssuer();

const listed = async () =>
  (await request(issuer.app).get('/credentials').query({ subject_address: SUBJECT, limit: 100 }).set('X-API-Token', apiToken)).body.items as Record<
    string,
    unknown
  >[];

describe('a batch of copies', () => {
  it('a wallet asks for three in one request: each bound to its own key, with its own jti, salts and status entry; one record that revokes them all', async () => {
    const holders = await Promise.all([newHolder(), newHolder(), newHolder()]);
    const o = await offered(AGE);
    const client = walletClient(holders[0]!);
    const credentialOffer = await client.resolveCredentialOffer(o.offer_link);
    const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
    expect(issuerMetadata.credentialIssuer.batch_credential_issuance).toEqual({ batch_size: 10 });
    expect(issuerMetadata.credentialIssuer.notification_endpoint).toBe(`${url}/notification`);
    const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer, issuerMetadata, txCode: o.tx_code! });
    // One nonce, one proof per key, each signed by the wallet library with that key.
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const proofs = [];
    for (const holder of holders)
      proofs.push(
        (
          await walletClient(holder).createCredentialRequestJwtProof({
            issuerMetadata,
            credentialConfigurationId: 'age_over_sd_jwt',
            nonce: c_nonce,
            signer: { method: 'jwk', alg: 'ES256', publicJwk: holder.publicJwk as never },
          })
        ).jwt,
      );
    const { credentialResponse } = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: 'age_over_sd_jwt',
      proofs: { jwt: proofs },
    });
    const copies = credentialResponse.credentials!.map((c) => (c as { credential: string }).credential);
    expect(copies).toHaveLength(3);
    expect(credentialResponse.notification_id).toEqual(expect.any(String));

    const payloads = copies.map((c) => decodeJwt(c.split('~')[0]!) as Record<string, any>);
    expect(payloads.map((p) => p.cnf.jwk.x)).toEqual(holders.map((h) => h.publicJwk.x));
    // Nothing the copies carry is shared: not the id, the status entry, the salts or the digests.
    expect(new Set(payloads.map((p) => p.jti)).size).toBe(3);
    expect(new Set(payloads.map((p) => `${p.status.status_list.uri}#${p.status.status_list.idx}`)).size).toBe(3);
    const disclosures = copies.flatMap((c) => c.split('~').slice(1).filter(Boolean));
    expect(new Set(disclosures).size).toBe(disclosures.length);
    expect(new Set(payloads.flatMap((p) => p._sd)).size).toBe(payloads.flatMap((p) => p._sd).length);
    expect(payloads.every((p) => p.iss === url && p.vct === `${url}/credential-types/age-over`)).toBe(true);
    expect(decodeProtectedHeader(copies[0]!.split('~')[0]!).x5c).toBeDefined();

    // Each copy verifies, shown by its own key.
    const ca = (await request(issuer.app).get('/certificates/issuer-ca.pem')).text;
    const shown = await Promise.all(copies.map((c, i) => present(holders[i]!, c, { age_over_18: true }, { aud: 'https://shop.example', nonce: `n-${i}` })));
    for (const [i, s] of shown.entries()) expect((await verifyByCertificate(ca, s, `n-${i}`)).payload.age_over_18).toBe(true);

    // One record for the organization; revoking any copy revokes them all.
    const record = (await listed()).find((r) => r.id === payloads[0]!.jti);
    expect(record).toMatchObject({ copies: 3, format: 'dc+sd-jwt', status: 'active' });
    expect((await listed()).some((r) => r.id === payloads[1]!.jti)).toBe(false);
    const revoked = await request(issuer.app).post('/credentials/revoke').set('X-API-Token', apiToken).send({ credential_id: payloads[2]!.jti });
    expect(revoked.status).toBe(200);
    for (const [i, s] of shown.entries()) await expect(verifyByCertificate(ca, s, `n-${i}`)).rejects.toThrow(/Status is not valid/);
    expect((await listed()).find((r) => r.id === payloads[0]!.jti)).toMatchObject({ status: 'revoked' });
  });

  it('mdocs too: two copies, two device keys', async () => {
    const holders = [await newHolder(), await newHolder()];
    const o = await offered({ ...AGE, credential_configuration_id: 'age_over_mdoc' });
    const token = (await tokenFor(o)).body.access_token as string;
    const n = await nonce();
    const res = await credentialRequest(token, {
      credential_configuration_id: 'age_over_mdoc',
      proofs: { jwt: await Promise.all(holders.map((h) => proof(h, { aud: url, iat: now(), nonce: n }))) },
    });
    expect(res.status).toBe(200);
    expect(res.body.credentials).toHaveLength(2);
    expect(res.body.credentials[0].credential).not.toBe(res.body.credentials[1].credential);
  });

  it('refuses more proofs than batch_size, two proofs of one key, several for a W3C credential, and an unknown nonce among them (which spends the request’s nonces); nothing is issued and the offer stays usable', async () => {
    const o = await offered(AGE);
    const token = (await tokenFor(o)).body.access_token as string;
    const ask = async (proofs: string[], configuration = 'age_over_sd_jwt') =>
      credentialRequest(token, { credential_configuration_id: configuration, proofs: { jwt: proofs } });
    const holders = await Promise.all(Array.from({ length: 11 }, () => newHolder()));
    const n = await nonce();
    const eleven = await Promise.all(holders.map((h) => proof(h, { aud: url, iat: now(), nonce: n })));
    expect((await ask(eleven)).body).toMatchObject({ error: 'invalid_proof', error_description: expect.stringContaining('At most 10 proofs') });
    const same = await proof(holders[0]!, { aud: url, iat: now(), nonce: n });
    expect((await ask([same, same])).body).toMatchObject({ error: 'invalid_proof', error_description: expect.stringContaining('a key of its own') });
    const unknown = await proof(holders[1]!, { aud: url, iat: now(), nonce: 'never-issued' });
    expect((await ask([eleven[0]!, unknown])).body).toMatchObject({ error: 'invalid_nonce' });
    // A request that fails on a nonce has spent the ones it carried: the wallet asks for a new one.
    expect((await ask(eleven.slice(0, 2))).body).toMatchObject({ error: 'invalid_nonce' });
    const fresh = await nonce();
    const ok = await ask(await Promise.all(holders.slice(0, 2).map((h) => proof(h, { aud: url, iat: now(), nonce: fresh }))));
    expect(ok.status).toBe(200);
    expect(ok.body.credentials).toHaveLength(2);

    const ldp = await offered({ ...AGE, credential_configuration_id: 'age_over_ldp_vc' });
    const ldpToken = (await tokenFor(ldp)).body.access_token as string;
    const m = await nonce();
    const two = await credentialRequest(ldpToken, {
      credential_configuration_id: 'age_over_ldp_vc',
      proofs: { jwt: [await proof(holders[2]!, { aud: url, iat: now(), nonce: m }), await proof(holders[3]!, { aud: url, iat: now(), nonce: m })] },
    });
    expect(two.body).toMatchObject({ error: 'invalid_credential_request', error_description: expect.stringContaining('one per request') });
  });
});

describe('the notification endpoint', () => {
  const received = async () => {
    const holder = await newHolder();
    const o = await offered(AGE);
    const token = (await tokenFor(o)).body.access_token as string;
    const res = await credentialRequest(token, { proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    expect(res.status).toBe(200);
    const jti = decodeJwt(res.body.credentials[0].credential.split('~')[0]).jti as string;
    return { token, notificationId: res.body.notification_id as string, jti };
  };
  const notify = (token: string | undefined, body: object) => {
    const req = request(issuer.app).post('/notification');
    return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
  };

  it('keeps what the wallet says on the record: GET /credentials shows it; credential_deleted revokes nothing', async () => {
    const { token, notificationId, jti } = await received();
    const accepted = await notify(token, { notification_id: notificationId, event: 'credential_accepted', event_description: 'stored' });
    expect(accepted.status).toBe(204);
    expect((await listed()).find((r) => r.id === jti)).toMatchObject({ wallet_event: 'credential_accepted', status: 'active' });
    expect((await notify(token, { notification_id: notificationId, event: 'credential_deleted' })).status).toBe(204);
    expect((await listed()).find((r) => r.id === jti)).toMatchObject({ wallet_event: 'credential_deleted', status: 'active' });
  });

  it('refuses an id the token did not receive, no token, and a body of the wrong shape, naming the field', async () => {
    const mine = await received();
    const theirs = await received();
    expect((await notify(mine.token, { notification_id: theirs.notificationId, event: 'credential_accepted' })).body).toMatchObject({
      error: 'invalid_notification_id',
    });
    expect((await notify(mine.token, { notification_id: 'nope', event: 'credential_accepted' })).status).toBe(400);
    expect((await notify(undefined, { notification_id: mine.notificationId, event: 'credential_accepted' })).status).toBe(401);
    const wrong = await notify(mine.token, { notification_id: mine.notificationId, event: 'credential_lost' });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('event');
    expect((await listed()).find((r) => r.id === theirs.jti)).toMatchObject({ wallet_event: null });
  });
});
