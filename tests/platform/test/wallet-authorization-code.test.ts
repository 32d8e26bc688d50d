import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { DataItem, DeviceResponse, parse, Verifier } from '@auth0/mdl';
import { cborDecode, cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import {
  apiToken,
  db,
  eventsUrl,
  idp,
  introspections,
  issuer,
  minor,
  person,
  REDIRECT_URI,
  receive,
  useWalletServices,
  walletClientId,
} from './wallet-services.js';

// OpenID4VCI's authorization code flow across the two services as they are deployed: a wallet
// (libraries this project did not write) finds the identity provider in the credential issuer's
// metadata, pushes its authorization request with `authorization_details` there, the person
// approves, and the issuer introspects the wallet's token with its own client to learn what was
// approved and what the person's verified data says.
useWalletServices();

/**
 * The wallet answers a reader with the claims `wanted` of its mdoc, signed with its device key,
 * and the reader, trusting only the issuer CA as served, verifies the answer (@auth0/mdl on both
 * sides): the issuer's signature and chain, every digest, the validity and the device signature,
 * which holds only if the mdoc's device key is the wallet's. The document as verified.
 */
async function presentedMdoc(holder: { privateKey: CryptoKey }, credential: string, doctype: string, wanted: string[]) {
  const issuerSigned = cborDecode(Buffer.from(credential, 'base64url'));
  const mdoc = parse(Buffer.from(cborEncode({ version: '1.0', documents: [{ docType: doctype, issuerSigned }], status: 0 })));
  const fields = wanted.map((name) => ({ path: [`$['${doctype}']['${name}']`], intent_to_retain: false }));
  const transcript = Buffer.from(cborEncode(DataItem.fromData([null, null, ['nonce', 'https://reader.example', 'handover']])));
  const answer = await DeviceResponse.from(mdoc)
    .usingPresentationDefinition({
      id: doctype,
      input_descriptors: [{ id: doctype, format: { mso_mdoc: { alg: ['ES256'] } }, constraints: { limit_disclosure: 'required', fields } }],
    })
    .usingSessionTranscriptBytes(transcript)
    .authenticateWithSignature(await exportJWK(holder.privateKey), 'ES256')
    .sign();
  const ca = await (await fetch(`${issuer.url}/certificates/issuer-ca.pem`)).text();
  const verified = await new Verifier([ca]).verify(answer.encode(), { encodedSessionTranscript: transcript });
  return verified.documents[0]!;
}

describe('OpenID4VCI authorization code flow through the identity provider', () => {
  it('advertises both authorization servers, and the identity provider the openid_credential type', async () => {
    const metadata = (await (await fetch(`${issuer.url}/.well-known/openid-credential-issuer`)).json()) as { authorization_servers: string[] };
    expect(metadata.authorization_servers).toEqual([issuer.url, idp.url]);
    const discovery = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery.authorization_details_types_supported).toEqual(['openid_credential']);
  });

  it('issues an SD-JWT VC with the claims the person’s verified data holds, bound to the wallet’s key, named as the token response says', async () => {
    const { wallet, issuerMetadata, accessTokenResponse, context, jwt } = await receive(person);
    // The consent context shows the credential asked for; the token response grants it with its identifier (§6.2).
    expect(context.authorization_details).toEqual([{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: [issuer.url] }]);
    expect(accessTokenResponse.authorization_details).toEqual([
      { type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: [issuer.url], credential_identifiers: ['age_over_sd_jwt'] },
    ]);
    const { credentialResponse } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: 'age_over_sd_jwt',
      proofs: { jwt: [jwt] },
    });
    const credential = (credentialResponse.credentials![0] as { credential: string }).credential;
    const { jwks } = (await (await fetch(`${issuer.url}/.well-known/jwt-vc-issuer`)).json()) as { jwks: { keys: (JWK & { kid: string })[] } };
    const sdjwt = new SDJwtVcInstance({
      hasher: digest,
      verifier: async (data: string, signature: string) => {
        const kid = JSON.parse(Buffer.from(data.split('.')[0]!, 'base64url').toString('utf8')).kid as string;
        return (await ES256.getVerifier(jwks.keys.find((k) => k.kid === kid) as never))(data, signature);
      },
      loadTypeMetadataFormat: false,
    });
    const verified = await sdjwt.verify(credential);
    const claims = (await sdjwt.getClaims(credential)) as Record<string, unknown>;
    expect(verified.payload.iss).toBe(issuer.url);
    expect(verified.payload.vct).toBe(`${issuer.url}/credential-types/age-over`);
    expect(claims.age_over_18).toBe(true);
    expect(claims.age_over_21).toBe(true);
    expect(claims).not.toHaveProperty('date_of_birth');
    // It ends no later than the verification behind it (the date of birth's, 300 days from now).
    expect(verified.payload.exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 300 * 86_400);
  });

  it('issues the W3C credential with a bbs-2023 proof (ldp_vc) about the wallet’s did:jwk, which the holder derives and a verifier checks', async () => {
    const { wallet, issuerMetadata, accessTokenResponse, jwt, did } = await receive(person, 'age_over_ldp_vc', { bind: 'did' });
    const { credentialResponse } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: 'age_over_ldp_vc',
      proofs: { jwt: [jwt] },
    });
    const credential = (credentialResponse.credentials![0] as { credential: Record<string, any> }).credential;
    expect(credential).toMatchObject({
      type: ['VerifiableCredential', 'AgeCredential'],
      credentialSubject: { id: did, age_over_18: true, age_over_21: true },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'bbs-2023' },
    });
    // The holder shows one claim; the verifier (the W3C VC API here) checks the derived proof and the status.
    const vcApi = (path: string, body: unknown) =>
      fetch(`${issuer.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Token': apiToken }, body: JSON.stringify(body) });
    const derived = (await (
      await vcApi('/credentials/derive', { verifiableCredential: credential, options: { selectivePointers: ['/credentialSubject/age_over_18'] } })
    ).json()) as { verifiableCredential: Record<string, any> };
    expect(derived.verifiableCredential.credentialSubject).toEqual({ id: did, age_over_18: true });
    const verified = (await (await vcApi('/credentials/verify', { verifiableCredential: derived.verifiableCredential })).json()) as { verified: boolean };
    expect(verified.verified).toBe(true);
  });

  it('issues the EU age verification mdoc with the person’s verified data, its device key the wallet’s, which a reader trusting the issuer CA verifies', async () => {
    const { retrieve, holder } = await receive(person, 'age_over_mdoc');
    const { credentialResponse } = await retrieve();
    const credential = (credentialResponse.credentials![0] as { credential: string }).credential;
    const verified = await presentedMdoc(holder, credential, 'eu.europa.ec.av.1', ['age_over_18', 'age_over_21']);
    expect(verified.getIssuerNameSpace('eu.europa.ec.av.1')).toEqual({ age_over_18: true, age_over_21: true });
  });

  it('issues the verified-human mdoc under its own doctype with the person’s palm verification, verified as the age mdoc is', async () => {
    const { retrieve, holder, context } = await receive(person, 'verified_human_mdoc');
    expect(context.authorization_details).toEqual([{ type: 'openid_credential', credential_configuration_id: 'verified_human_mdoc', locations: [issuer.url] }]);
    const { credentialResponse } = await retrieve();
    const credential = (credentialResponse.credentials![0] as { credential: string }).credential;
    const verified = await presentedMdoc(holder, credential, 'org.svc.verified_human.1', ['unique_human', 'palm_verified']);
    expect(verified.docType).toBe('org.svc.verified_human.1');
    expect(verified.getIssuerNameSpace('org.svc.verified_human.1')).toEqual({ unique_human: true, palm_verified: true });
  });

  it('takes a request by the configuration’s scope (HAIP 1.0), shown and granted as its authorization detail would be', async () => {
    const discovery = (await (await fetch(`${idp.url}/.well-known/openid-configuration`)).json()) as { scopes_supported: string[] };
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['age_over_sd_jwt', 'age_over_mdoc', 'kyc_sd_jwt']));
    const { accessTokenResponse, context, retrieve } = await receive(person, 'age_over_sd_jwt', { byScope: true });
    expect(context.authorization_details).toEqual([{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: [issuer.url] }]);
    expect(accessTokenResponse.authorization_details).toEqual([
      { type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: [issuer.url], credential_identifiers: ['age_over_sd_jwt'] },
    ]);
    const { credentialResponse } = await retrieve();
    expect((credentialResponse.credentials![0] as { credential: string }).credential.split('~').length).toBeGreaterThan(2);
  });

  it('with DPoP: the token the identity provider bound to the wallet’s key is proven at the issuer, and refused as a bearer token', async () => {
    const { wallet, issuerMetadata, accessTokenResponse, dpop, jwt, credentialRequest } = await receive(person, 'age_over_sd_jwt', { dpop: true });
    expect(accessTokenResponse.token_type).toBe('DPoP');
    const asBearer = await credentialRequest({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [jwt] } });
    expect(asBearer.status).toBe(401);
    expect(((await asBearer.json()) as { error: string }).error).toBe('invalid_dpop_proof');
    const { credentialResponse } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: 'age_over_sd_jwt',
      proofs: { jwt: [jwt] },
      dpop: dpop!,
    });
    expect((credentialResponse.credentials![0] as { credential: string }).credential.split('~').length).toBeGreaterThan(2);
  });

  it('takes the credential_identifier of the token response, refuses one the token does not grant, and issues one credential per approval', async () => {
    const { credentialRequest, jwt, wallet, issuerMetadata } = await receive(person);
    const other = await credentialRequest({ credential_identifier: 'kyc_sd_jwt', proofs: { jwt: [jwt] } });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: string }).error).toBe('unknown_credential_identifier');
    const res = await credentialRequest({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [jwt] } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { credentials: unknown[] }).credentials).toHaveLength(1);
    // A second credential on the same approval, for another key, with a fresh nonce: refused.
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const { c_nonce } = await wallet.requestNonce({ issuerMetadata });
    const another = await new SignJWT({ aud: issuer.url, iat: Math.floor(Date.now() / 1000), nonce: c_nonce })
      .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: await exportJWK(publicKey) })
      .sign(privateKey);
    const again = await credentialRequest({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [another] } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error_description: string }).error_description).toMatch(/already issued on this approval/);
  });

  it('issues what the person’s data says (under 18: age_over_18 false), and refuses a credential its required claims are missing from (KYC without a passed check)', async () => {
    const underage = await receive(minor);
    const res = await underage.credentialRequest({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [underage.jwt] } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { credentials: { credential: string }[] };
    const disclosed = body.credentials[0]!.credential.split('~')
      .slice(1, -1)
      .map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as unknown[]);
    expect(disclosed).toContainEqual([expect.any(String), 'age_over_18', false]);
    const kyc = await receive(minor, 'kyc_sd_jwt');
    const denied = await kyc.credentialRequest({ credential_identifier: 'kyc_sd_jwt', proofs: { jwt: [kyc.jwt] } });
    expect(denied.status).toBe(400);
    expect(((await denied.json()) as { error: string }).error).toBe('credential_request_denied');
  });

  /** A fresh SD-JWT VC on a fresh approval, and how to read its bit in its Token Status List as a verifier does. */
  async function issuedWithStatus() {
    const received = await receive(person);
    const res = await received.credentialRequest({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [received.jwt] } });
    const credential = ((await res.json()) as { credentials: { credential: string }[] }).credentials[0]!.credential;
    const payload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
    const { idx, uri } = payload(credential.split('~')[0]!).status.status_list as { idx: number; uri: string };
    const revokedBit = async () => {
      const list = payload(await (await fetch(uri)).text()).status_list as { lst: string };
      return (inflateSync(Buffer.from(list.lst, 'base64url'))[idx >> 3]! >> (idx & 7)) & 1;
    };
    // The wallet's user revokes the approval (here through the wallet's own refresh token: reason client).
    const revoke = () =>
      fetch(`${idp.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: received.accessTokenResponse.refresh_token!, client_id: walletClientId }),
      });
    const untilRevoked = async () => {
      const deadline = Date.now() + 20_000;
      while ((await revokedBit()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      return revokedBit();
    };
    return { authorizationId: received.accessTokenResponse.authorization_id as string, revokedBit, revoke, untilRevoked };
  }
  /** The identity provider's deliveries of wallet_approval.revoked for one approval, by outcome. */
  const deliveries = (authorizationId: string) =>
    db.webhookDelivery.findMany({ where: { event: { type: 'wallet_approval.revoked', subject: authorizationId } }, select: { status: true } });

  it('revokes the credential issued on an approval once the person revokes it: the identity provider’s webhook tells the issuer', async () => {
    const issued = await issuedWithStatus();
    expect(await issued.revokedBit()).toBe(0);
    expect((await issued.revoke()).status).toBe(200);
    expect(await issued.untilRevoked()).toBe(1);
    // The webhook delivered it (the sweep, every second here, may have got there first).
    const deadline = Date.now() + 10_000;
    while ((await deliveries(issued.authorizationId)).every((d) => d.status !== 'succeeded') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await deliveries(issued.authorizationId)).toEqual([{ status: 'succeeded' }]);
  });

  it('revokes it all the same when the event never arrives: the issuer asks about its credentials’ approvals (the reconciliation)', async () => {
    await db.webhookEndpoint.updateMany({ where: { url: eventsUrl }, data: { enabled: false } });
    try {
      const issued = await issuedWithStatus();
      // The approval stands: the sweeps since leave the credential alone.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await issued.revokedBit()).toBe(0);
      expect((await issued.revoke()).status).toBe(200);
      expect(await issued.untilRevoked()).toBe(1);
      expect(await deliveries(issued.authorizationId)).toEqual([]);
    } finally {
      await db.webhookEndpoint.updateMany({ where: { url: eventsUrl }, data: { enabled: true } });
    }
  });

  it('refuses a token once the person revokes the authorization, and a token the identity provider never issued', async () => {
    const { credentialRequest, jwt, accessTokenResponse } = await receive(person);
    const revoked = await fetch(`${idp.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessTokenResponse.refresh_token!, client_id: walletClientId }),
    });
    expect(revoked.status).toBe(200);
    const res = await credentialRequest({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [jwt] } });
    expect(res.status).toBe(401);
    // Tokens the identity provider did not sign for this issuer are refused here, without asking it:
    // its introspection endpoint (and the issuer client's budget there) never sees them.
    const before = await introspections();
    expect(before).toBeGreaterThan(0); // the revoked token above was introspected
    const { privateKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const lookalike = await new SignJWT({
      aud: [`${idp.url}/v2`, issuer.url],
      client_id: walletClientId,
      scope: '',
      authorization_id: crypto.randomUUID(),
      jti: 'x',
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'not-theirs' })
      .setIssuer(idp.url)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    for (const token of ['eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', lookalike]) {
      const forged = await fetch(`${issuer.url}/credential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ credential_identifier: 'age_over_sd_jwt', proofs: { jwt: [jwt] } }),
      });
      expect(forged.status).toBe(401);
    }
    expect(await introspections()).toBe(before);
  });

  it('asks the identity provider about one approval at most ten times a minute, and not at all once its credential is issued', async () => {
    const { credentialRequest, jwt } = await receive(person);
    const before = await introspections();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await credentialRequest({ credential_identifier: 'kyc_sd_jwt', proofs: { jwt: [jwt] } })).status);
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    expect((await introspections()) - before).toBe(10);
  });

  it('refuses authorization details of another type, an unknown configuration or another issuer, before anything is stored', async () => {
    const par = (details: unknown) =>
      fetch(`${idp.url}/oauth/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: walletClientId,
          response_type: 'code',
          redirect_uri: REDIRECT_URI,
          code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
          code_challenge_method: 'S256',
          authorization_details: typeof details === 'string' ? details : JSON.stringify(details),
        }),
      });
    for (const details of [
      [{ type: 'payment_initiation' }],
      [{ type: 'openid_credential', credential_configuration_id: 'passport_sd_jwt' }],
      [{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt', locations: ['https://issuer.example'] }],
      'not json',
      [],
    ]) {
      const res = await par(details);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_authorization_details');
    }
  });
});
