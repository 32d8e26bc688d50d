// Passkeys through the API, with an authenticator in Node (test-authenticator.ts) against the real
// PostgreSQL and Redis: adding, listing, renaming and deleting them; signing in, with the acr and amr
// a passkey gives; and every refusal an attacker's or a broken authenticator's answer must meet.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sha256Hex } from '@svc/secrets';
import request from 'supertest';
import { arrange, buildIdp, PRODUCTION_URL, signIn, useIdp } from '../helpers.js';
import { TestAuthenticator } from './test-authenticator.js';

const suite = useIdp();
let now = new Date();
let idp: ReturnType<typeof buildIdp>;
beforeAll(() => {
  idp = buildIdp({ TRUST_PROXY: 'true' }, { now: () => now });
});
afterAll(async () => {
  await idp.deps.close();
});

let sources = 0;
/** A source address no other test uses, so that the throttle of one test never meets another. */
const newSource = () => `198.51.100.${++sources}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A signed-in person of their own, with an authenticator. */
async function person() {
  const a = await arrange(suite.db);
  const token = await signIn(idp.app, a.user.email, a.user.password);
  return { ...a, token, authenticator: new TestAuthenticator(PRODUCTION_URL) };
}

async function registrationOptions(token: string) {
  const res = await request(idp.app).post('/v2/me/passkeys/registration-options').set(bearer(token)).send({});
  expect(res.status).toBe(200);
  return res.body;
}

async function addPasskey(p: Awaited<ReturnType<typeof person>>, name?: string) {
  const credential = p.authenticator.create(await registrationOptions(p.token));
  const res = await request(idp.app)
    .post('/v2/me/passkeys')
    .set(bearer(p.token))
    .send({ ...(name ? { name } : {}), credential });
  expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.objectContaining({ id: expect.any(String) }) });
  return res.body as { id: string; name: string };
}

async function signInOptions() {
  const res = await request(idp.app).post('/auth/passkey/options').send();
  expect(res.status).toBe(200);
  return res.body as { challenge_id: string; options: { challenge: string } };
}

const passkeySignIn = (body: object, source = newSource()) => request(idp.app).post('/auth/passkey').set('X-Forwarded-For', source).send(body);

describe('POST /v2/me/passkeys/registration-options', () => {
  it('asks for a discoverable credential with user verification for this host, and for no attestation without roots', async () => {
    const p = await person();
    const options = await registrationOptions(p.token);
    expect(options.rp.id).toBe(new URL(PRODUCTION_URL).hostname);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.attestation).toBe('none');
    expect(options.user.name).toBe(p.user.email);
    // The user handle names no one: neither the email nor the user id.
    expect(Buffer.from(options.user.id, 'base64url').toString()).not.toContain(p.user.id);
  });

  it('lists the person’s passkeys as excluded, so one authenticator does not register twice', async () => {
    const p = await person();
    await addPasskey(p);
    const options = await registrationOptions(p.token);
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([p.authenticator.held[0]!.id.toString('base64url')]);
  });

  it('needs a session, and with the cookie its CSRF token', async () => {
    expect((await request(idp.app).post('/v2/me/passkeys/registration-options').send({})).status).toBe(401);
    const p = await person();
    const res = await request(idp.app).post('/v2/me/passkeys/registration-options').set('Cookie', `__Host-svc_session=${p.token}`).send({});
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('csrf_failed');
  });
});

describe('POST /v2/me/passkeys', () => {
  it('adds a passkey that lists with its flags, and renames it', async () => {
    const p = await person();
    const added = await addPasskey(p, 'Laptop');
    expect(added).toMatchObject({ name: 'Laptop', last_used_at: null, synced: false, backed_up: false, attested_hardware: false, transports: ['internal'] });
    const list = await request(idp.app).get('/v2/me/passkeys').set(bearer(p.token));
    expect(list.body.items).toEqual([added]);
    const renamed = await request(idp.app).patch(`/v2/me/passkeys/${added.id}`).set(bearer(p.token)).send({ name: '  Work laptop ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Work laptop');
    const unnamed = await addPasskey({ ...p, authenticator: new TestAuthenticator(PRODUCTION_URL, { synced: true }) });
    expect(unnamed).toMatchObject({ name: 'Passkey 2', synced: true, backed_up: true });
  });

  it('refuses a credential made without user verification', async () => {
    const p = await person();
    const credential = p.authenticator.create(await registrationOptions(p.token), { userVerified: false });
    const res = await request(idp.app).post('/v2/me/passkeys').set(bearer(p.token)).send({ credential });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_registration');
    expect(res.body.error_description).toMatch(/verif/i);
  });

  it('refuses a credential made for another origin or another RP ID', async () => {
    const p = await person();
    for (const tamper of [{ origin: 'https://id.example.com.evil.example' }, { rpId: 'evil.example' }]) {
      const credential = p.authenticator.create(await registrationOptions(p.token), tamper);
      const res = await request(idp.app).post('/v2/me/passkeys').set(bearer(p.token)).send({ credential });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_registration');
    }
    expect((await request(idp.app).get('/v2/me/passkeys').set(bearer(p.token))).body.items).toEqual([]);
  });

  it('spends each registration challenge once, and only for the person it was made for', async () => {
    const alice = await person();
    const mallory = await person();
    const options = await registrationOptions(alice.token);
    // Mallory answers Alice's challenge: not hers to spend.
    const stolen = await request(idp.app)
      .post('/v2/me/passkeys')
      .set(bearer(mallory.token))
      .send({ credential: mallory.authenticator.create(options) });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_challenge');
    const fresh = await registrationOptions(alice.token);
    const credential = alice.authenticator.create(fresh);
    expect((await request(idp.app).post('/v2/me/passkeys').set(bearer(alice.token)).send({ credential })).status).toBe(201);
    const again = await request(idp.app).post('/v2/me/passkeys').set(bearer(alice.token)).send({ credential });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_challenge');
  });

  it('refuses another person’s credential id', async () => {
    const alice = await person();
    await addPasskey(alice);
    const mallory = await person();
    const credential = mallory.authenticator.create(await registrationOptions(mallory.token), {
      credentialId: alice.authenticator.held[0]!.id.toString('base64url'),
    });
    const res = await request(idp.app).post('/v2/me/passkeys').set(bearer(mallory.token)).send({ credential });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('passkey_exists');
  });

  it('answers malformed credentials with 400 naming the field', async () => {
    const p = await person();
    const credential = p.authenticator.create(await registrationOptions(p.token));
    const bad = await request(idp.app)
      .post('/v2/me/passkeys')
      .set(bearer(p.token))
      .send({ credential: { ...credential, response: { ...credential.response, clientDataJSON: 'not base64url!' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'body.credential.response.clientDataJSON' })]));
    const garbage = await request(idp.app)
      .post('/v2/me/passkeys')
      .set(bearer(p.token))
      .send({ credential: { ...credential, response: { ...credential.response, clientDataJSON: 'AAAA', attestationObject: 'AAAA' } } });
    expect(garbage.status).toBe(400);
    const name = await request(idp.app).post('/v2/me/passkeys').set(bearer(p.token)).send({ name: '', credential });
    expect(name.status).toBe(400);
    expect(name.body.details[0].field).toBe('body.name');
  });
});

describe('changing an account’s passkeys', () => {
  it('needs a sign-in of the last ten minutes: an old or stolen session cannot plant or remove one', async () => {
    const p = await person();
    const added = await addPasskey(p, 'Laptop');
    now = new Date(now.getTime() + 601_000);
    try {
      for (const res of [
        await request(idp.app).post('/v2/me/passkeys/registration-options').set(bearer(p.token)).send({}),
        await request(idp.app)
          .post('/v2/me/passkeys')
          .set(bearer(p.token))
          .send({ credential: p.authenticator.create({ challenge: 'eA', user: { id: 'AA' } }) }),
        await request(idp.app).delete(`/v2/me/passkeys/${added.id}`).set(bearer(p.token)),
      ])
        expect([res.status, res.body.error]).toEqual([403, 'login_required']);
      // A fresh sign-in (the password again) may.
      const again = await signIn(idp.app, p.user.email, p.user.password);
      expect((await request(idp.app).delete(`/v2/me/passkeys/${added.id}`).set(bearer(again))).status).toBe(204);
    } finally {
      now = new Date(now.getTime() - 601_000);
    }
  });

  it('mails the owner each passkey added or removed, in the language of the request', async () => {
    const p = await person();
    const added = await addPasskey(p, 'Work laptop');
    await request(idp.app).delete(`/v2/me/passkeys/${added.id}`).set(bearer(p.token)).set('Accept-Language', 'de');
    const mails = async () => (await request(idp.app).get('/dev/outbox.json').query({ to: p.user.email })).body.items as { subject: string; text: string }[];
    let inbox = await mails();
    for (let i = 0; i < 20 && inbox.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      inbox = await mails();
    }
    expect(inbox.map((m) => m.subject).sort()).toEqual(['A passkey was added to your account', 'Ein Passkey wurde aus Ihrem Konto entfernt']);
    expect(inbox.find((m) => m.subject.startsWith('A passkey'))!.text).toContain('"Work laptop"');
    expect(inbox.find((m) => m.subject.startsWith('A passkey'))!.text).toContain(`${PRODUCTION_URL}/account`);
  });
});

describe('PATCH and DELETE /v2/me/passkeys/{id}', () => {
  it('answers 404 for another person’s passkey, which stays as it was', async () => {
    const alice = await person();
    const added = await addPasskey(alice, 'Mine');
    const mallory = await person();
    expect((await request(idp.app).patch(`/v2/me/passkeys/${added.id}`).set(bearer(mallory.token)).send({ name: 'Ours' })).status).toBe(404);
    const deleted = await request(idp.app).delete(`/v2/me/passkeys/${added.id}`).set(bearer(mallory.token));
    expect(deleted.status).toBe(404);
    expect(deleted.body.error).toBe('passkey_not_found');
    expect((await request(idp.app).get('/v2/me/passkeys').set(bearer(alice.token))).body.items).toEqual([expect.objectContaining({ name: 'Mine' })]);
    expect((await request(idp.app).delete('/v2/me/passkeys/not-a-uuid').set(bearer(alice.token))).status).toBe(400);
  });

  it('deletes a passkey, after which it signs no one in, and ends the other sessions it signed in', async () => {
    const p = await person();
    const [added, lost] = [await addPasskey(p), await addPasskey(p)];
    /** A session signed in with the authenticator's passkey `which` (0: added, 1: lost). */
    const signedInWith = async (which: number) => {
      const { challenge_id, options } = await signInOptions();
      const res = await passkeySignIn({ challenge_id, credential: p.authenticator.get(options, {}, which) });
      expect(res.status).toBe(200);
      return res.body.session_token as string;
    };
    const live = async (token: string) => (await request(idp.app).get('/v2/me/passkeys').set(bearer(token))).status;
    const [byLost, byAdded, byPassword] = [await signedInWith(1), await signedInWith(0), await signIn(idp.app, p.user.email, p.user.password)];
    expect((await request(idp.app).delete(`/v2/me/passkeys/${lost.id}`).set(bearer(byPassword))).status).toBe(204);
    expect([await live(byLost), await live(byAdded), await live(byPassword), await live(p.token)]).toEqual([401, 200, 200, 200]);
    // The session asking stays, even when the passkey it deletes is the one it signed in with.
    const byAddedAgain = await signedInWith(0);
    expect((await request(idp.app).delete(`/v2/me/passkeys/${added.id}`).set(bearer(byAddedAgain))).status).toBe(204);
    expect([await live(byAddedAgain), await live(byAdded)]).toEqual([200, 401]);

    const { challenge_id, options } = await signInOptions();
    const res = await passkeySignIn({ challenge_id, credential: p.authenticator.get(options, {}, 0) });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_credentials');
  });

  it('refuses to delete the last way into an account that has no password', async () => {
    const p = await person();
    const [first, second] = [await addPasskey(p), await addPasskey(p)];
    // No account is made without a password today: this one's is taken away directly.
    await suite.db.user.update({ where: { id: p.user.id }, data: { passwordHash: '' } });
    expect((await request(idp.app).delete(`/v2/me/passkeys/${first.id}`).set(bearer(p.token))).status).toBe(204);
    const last = await request(idp.app).delete(`/v2/me/passkeys/${second.id}`).set(bearer(p.token));
    expect(last.status).toBe(409);
    expect(last.body.error).toBe('last_sign_in_method');
    // With a password, the last passkey may go.
    const q = await person();
    const only = await addPasskey(q);
    expect((await request(idp.app).delete(`/v2/me/passkeys/${only.id}`).set(bearer(q.token))).status).toBe(204);
  });
});

describe('POST /auth/passkey', () => {
  it('signs in as POST /auth/session does, with acr phr and amr swk user, and stamps the passkey’s use', async () => {
    const p = await person();
    const added = await addPasskey(p);
    const { challenge_id, options } = await signInOptions();
    expect(options).toMatchObject({ rpId: new URL(PRODUCTION_URL).hostname, userVerification: 'required' });
    expect(options).not.toHaveProperty('allowCredentials.0');
    const res = await passkeySignIn({ challenge_id, credential: p.authenticator.get(options) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session_token: expect.stringMatching(/^svcsess_/), expires_in: 43200 });
    expect(res.headers['set-cookie']?.[0]).toMatch(/^__Host-svc_session=svcsess_/);
    const session = await suite.db.session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(res.body.session_token) } });
    expect({ acr: session.acr, amr: session.amr }).toEqual({ acr: 'phr', amr: ['swk', 'user'] });
    const [listed] = (await request(idp.app).get('/v2/me/passkeys').set(bearer(res.body.session_token))).body.items;
    expect(listed.id).toBe(added.id);
    expect(listed.last_used_at).toBe(now.toISOString());
  });

  it('refuses a replayed assertion: each challenge signs in once', async () => {
    const p = await person();
    await addPasskey(p);
    const { challenge_id, options } = await signInOptions();
    const credential = p.authenticator.get(options);
    expect((await passkeySignIn({ challenge_id, credential })).status).toBe(200);
    const replay = await passkeySignIn({ challenge_id, credential });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_challenge');
  });

  it('refuses an answer signed for another origin, another RP ID, another challenge, or without user verification', async () => {
    const p = await person();
    await addPasskey(p);
    for (const tamper of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { challenge: 'c29tZXRoaW5nLWVsc2U' }, { userVerified: false }]) {
      const { challenge_id, options } = await signInOptions();
      const res = await passkeySignIn({ challenge_id, credential: p.authenticator.get(options, tamper) });
      expect([res.status, res.body.error]).toEqual([401, 'invalid_credentials']);
    }
  });

  it('refuses a sign counter that went backwards or stayed put, and accepts counters that both stay 0', async () => {
    const p = await person();
    await addPasskey(p);
    let { challenge_id, options } = await signInOptions();
    expect((await passkeySignIn({ challenge_id, credential: p.authenticator.get(options, { counter: 5 }) })).status).toBe(200);
    for (const counter of [4, 5]) {
      ({ challenge_id, options } = await signInOptions());
      const res = await passkeySignIn({ challenge_id, credential: p.authenticator.get(options, { counter }) });
      expect(res.status).toBe(401);
      expect(res.body.error_description).toMatch(/counter/i);
    }
    // Authenticators that keep no counter (synced passkeys) report 0 every time.
    const q = await person();
    await addPasskey(q);
    for (let i = 0; i < 2; i++) {
      ({ challenge_id, options } = await signInOptions());
      expect((await passkeySignIn({ challenge_id, credential: q.authenticator.get(options, { counter: 0 }) })).status).toBe(200);
    }
  });

  it('refuses another person’s credential id signed with one’s own key', async () => {
    const alice = await person();
    await addPasskey(alice);
    const mallory = await person();
    await addPasskey(mallory);
    const { challenge_id, options } = await signInOptions();
    const forged = mallory.authenticator.get(options, { credentialId: alice.authenticator.held[0]!.id.toString('base64url') });
    const res = await passkeySignIn({ challenge_id, credential: forged });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_credentials');
  });

  it('refuses an unknown or expired challenge_id', async () => {
    const p = await person();
    await addPasskey(p);
    const { options } = await signInOptions();
    const unknown = await passkeySignIn({ challenge_id: 'pkc_unknown', credential: p.authenticator.get(options) });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'invalid_challenge']);
    const issued = await signInOptions();
    now = new Date(now.getTime() + 301_000);
    try {
      const expired = await passkeySignIn({ challenge_id: issued.challenge_id, credential: p.authenticator.get(issued.options) });
      expect([expired.status, expired.body.error]).toEqual([400, 'invalid_challenge']);
    } finally {
      now = new Date(now.getTime() - 301_000);
    }
  });

  it('answers a malformed body with 400 naming the field', async () => {
    const res = await passkeySignIn({ challenge_id: 'pkc_x', credential: { id: 'abc', rawId: 'abc', type: 'password', response: {} } });
    expect(res.status).toBe(400);
    const fields = res.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.credential.type', 'body.credential.response.clientDataJSON']));
  });

  it('slows failed attempts per source and per passkey, never locking the password or the passkey elsewhere', async () => {
    const p = await person();
    await addPasskey(p);
    const source = newSource();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { challenge_id, options } = await signInOptions();
      statuses.push((await passkeySignIn({ challenge_id, credential: p.authenticator.get(options, { origin: 'https://evil.example' }) }, source)).status);
    }
    // Five failures are free per passkey and one more is checked; the next comes before its delay has run.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    // The password from the same source is untouched by the passkey's failures.
    const password = await request(idp.app).post('/auth/session').set('X-Forwarded-For', source).send({ email: p.user.email, password: p.user.password });
    expect(password.status).toBe(200);
    // A guesser's failures from one source leave another source's sign-ins with another passkey alone.
    const q = await person();
    await addPasskey(q);
    const { challenge_id, options } = await signInOptions();
    expect((await passkeySignIn({ challenge_id, credential: q.authenticator.get(options) }, source)).status).toBe(200);
  });

  it('hands an address at most 120 sign-in challenges a minute: each is kept five minutes, unauthenticated', async () => {
    const source = newSource();
    const ask = (from: string) => request(idp.app).post('/auth/passkey/options').set('X-Forwarded-For', from).send();
    const statuses = [];
    for (let i = 0; i < 120; i++) statuses.push((await ask(source)).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await ask(source);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask(newSource())).status).toBe(200);
  });
});
