// What a passkey sign-in is worth: `phrh` (hwk) only for a passkey whose attestation chains to a
// root the operator trusts (PASSKEY_ATTESTATION_ROOTS), `phr` (swk) for every other one; and the
// sandbox's test users, whose passkeys work through the same endpoints.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sha256Hex } from '@svc/secrets';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { arrange, buildIdp, PRODUCTION_URL, SANDBOX_URL, signIn, useIdp, useSandbox } from '../helpers.js';
import { type AttestationCa, attestationCa } from './attestation-ca.js';
import { TestAuthenticator } from './test-authenticator.js';

const suite = useIdp();
const sandbox = useSandbox();
let trusted: AttestationCa;
let untrusted: AttestationCa;
let idp: ReturnType<typeof buildIdp>;
beforeAll(async () => {
  [trusted, untrusted] = await Promise.all([attestationCa('Trusted Keys'), attestationCa('Other Keys')]);
  idp = buildIdp({ PASSKEY_ATTESTATION_ROOTS: trusted.rootPem });
});
afterAll(async () => {
  await idp.deps.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
type App = ReturnType<typeof buildIdp>['app'];

/** Adds a passkey made by `authenticator` for a new person, signs in with it, and answers the passkey and the session's assurance. */
async function addAndSignIn(app: App, db: typeof suite.db, authenticator: TestAuthenticator, environment: 'production' | 'sandbox' = 'production') {
  const a = await arrange(db, { environment });
  const token = await signIn(app, a.user.email, a.user.password);
  const options = (await request(app).post('/v2/me/passkeys/registration-options').set(bearer(token)).send({})).body;
  const added = await request(app)
    .post('/v2/me/passkeys')
    .set(bearer(token))
    .send({ credential: authenticator.create(options) });
  expect(added.status).toBe(201);
  const { challenge_id, options: request_ } = (await request(app).post('/auth/passkey/options').send()).body;
  const signedIn = await request(app)
    .post('/auth/passkey')
    .send({ challenge_id, credential: authenticator.get(request_) });
  expect(signedIn.status).toBe(200);
  const session = await db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(signedIn.body.session_token) } });
  return { options, passkey: added.body, token: signedIn.body.session_token as string, assurance: { acr: session.acr, amr: session.amr } };
}

describe('PASSKEY_ATTESTATION_ROOTS', () => {
  it('makes registration ask for attestation, and a passkey attested under one of the roots sign in as phrh with hwk', async () => {
    const { options, passkey, assurance } = await addAndSignIn(idp.app, suite.db, new TestAuthenticator(PRODUCTION_URL, { attestation: trusted }));
    expect(options.attestation).toBe('direct');
    expect(passkey.attested_hardware).toBe(true);
    expect(assurance).toEqual({ acr: 'phrh', amr: ['hwk', 'user'] });
  });

  it('keeps a passkey attested under another root, or not attested at all, at phr with swk', async () => {
    for (const authenticator of [new TestAuthenticator(PRODUCTION_URL, { attestation: untrusted }), new TestAuthenticator(PRODUCTION_URL)]) {
      const { passkey, assurance } = await addAndSignIn(idp.app, suite.db, authenticator);
      expect(passkey.attested_hardware).toBe(false);
      expect(assurance).toEqual({ acr: 'phr', amr: ['swk', 'user'] });
    }
  });

  it('trusts no attestation without roots, however well it chains', async () => {
    const { options, passkey, assurance } = await addAndSignIn(suite.idp.app, suite.db, new TestAuthenticator(PRODUCTION_URL, { attestation: trusted }));
    expect(options.attestation).toBe('none');
    expect(passkey.attested_hardware).toBe(false);
    expect(assurance.acr).toBe('phr');
  });

  it('is read from a file too, and refused with its name when it holds no certificate', () => {
    const base = {
      DATABASE_URL: 'postgresql://localhost/x',
      IDP_SECRET: 'Tq3vX9pL2mZ8rK4wN7yB1cF6hJ0sD5gA',
      PAIRWISE_SECRET: 'Zx8cV2bN6mQ4wE9rT1yU5iO3pA7sD0fG',
    };
    const kek = { IDP_SIGNING_KEY_KEK: 'Lk9jH3gF7dS1aQ5wE8rT2yU6iO0pZ4xC' };
    const file = join(mkdtempSync(join(tmpdir(), 'roots-')), 'roots.pem');
    writeFileSync(file, `${trusted.rootPem}\n${untrusted.rootPem}\n`);
    expect(loadConfig({ ...base, ...kek, PASSKEY_ATTESTATION_ROOTS_FILE: file }).passkeys.attestationRoots).toHaveLength(2);
    expect(() => loadConfig({ ...base, ...kek, PASSKEY_ATTESTATION_ROOTS: 'not a certificate' })).toThrow(
      /PASSKEY_ATTESTATION_ROOTS: must hold one or more PEM certificates/,
    );
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    expect(() => loadConfig({ ...base, ...kek, PASSKEY_ATTESTATION_ROOTS: broken })).toThrow(/certificate 1 is not a readable X.509 certificate/);
  });
});

describe('passkeys in the sandbox', () => {
  it('lets a test user add a passkey and sign in with it, for the sandbox’s own host', async () => {
    const { options, token, assurance } = await addAndSignIn(sandbox.idp.app, sandbox.db, new TestAuthenticator(SANDBOX_URL), 'sandbox');
    expect(options.rp.id).toBe(new URL(SANDBOX_URL).hostname);
    expect(token).toMatch(/^sbx_svcsess_/);
    expect(assurance.acr).toBe('phr');
  });

  it('does not know production’s passkeys', async () => {
    const authenticator = new TestAuthenticator(PRODUCTION_URL);
    await addAndSignIn(suite.idp.app, suite.db, authenticator);
    const { challenge_id, options } = (await request(sandbox.idp.app).post('/auth/passkey/options').send()).body;
    const res = await request(sandbox.idp.app)
      .post('/auth/passkey')
      .send({ challenge_id, credential: authenticator.get(options) });
    expect(res.status).toBe(401);
  });
});
