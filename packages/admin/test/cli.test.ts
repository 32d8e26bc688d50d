import { describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@svc/testkit';
import { cli, db, expectRefused, newOrg, newUser, WALLET } from './cli-harness.js';

describe('admin CLI', () => {
  it('rejects unknown commands and flags without touching the database', async () => {
    expectRefused(await cli('user:explode'), /unknown command "user:explode"/);
    expectRefused(await cli('user:create', '--email', 'a@b.c', '--pasword', 'x'), /user:create: Unknown option '--pasword'/);
    expectRefused(await cli('user:create', '--email', 'a@b.c'), /missing --password/);
    expect((await cli()).code).toBe(2);
  });

  it('suggests the command or flag a typo most likely meant', async () => {
    expectRefused(await cli('user:craete'), /unknown command "user:craete"; did you mean user:create\?/);
    expectRefused(await cli('keys:rotat', '--service', 'identity-provider'), /did you mean keys:rotate\?/);
    expectRefused(await cli('rewrap'), /did you mean keys:rewrap\?/);
    expectRefused(await cli('rotate'), /did you mean apikey:rotate or keys:rotate\?/);
    // One sentence each, each with its full stop: node's advice on positional arguments is not repeated.
    expectRefused(await cli('user:create', '--emial', 'a@b.c', '--password', 'x'), /: Unknown option '--emial'\. Did you mean --email\?\n$/);
    const far = await cli('launch-rockets');
    expectRefused(far, /unknown command "launch-rockets" \(known:/);
    expect(far.err).not.toContain('did you mean');
  });

  it('answers --help for every command on stdout, naming each flag, without touching the database', async () => {
    const top = await cli('--help');
    expect(top.code).toBe(0);
    const names = [...top.out.matchAll(/^ {2}([a-z]+:[a-z-]+) /gm)].map((m) => m[1]!);
    expect(names).toEqual(
      expect.arrayContaining(['user:list', 'user:show', 'org:list', 'org:show', 'client:list', 'client:show', 'apikey:list', 'apikey:show']),
    );
    for (const name of names) {
      const run = await cli(name, '--help');
      expect(run.code).toBe(0);
      expect(run.out).toMatch(new RegExp(`^usage: npm run --silent admin -- ${name} \\[flags\\]\n`));
    }
    expect((await cli('user:create', '--help')).out).toMatch(/--password VALUE {2}required {2}\(or --password-stdin, or env SVC_ADMIN_PASSWORD\)/);
  });

  describe('user:create', () => {
    it('creates a user with wallets, the first one primary', async () => {
      const email = uniqueEmail();
      const run = await cli(
        'user:create',
        '--email',
        email,
        '--password',
        'correct horse',
        '--wallet',
        WALLET,
        '--wallet',
        '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        '--palm-verified',
      );
      expect(run.code).toBe(0);
      expect(run.json).toEqual({ id: expect.any(String), email, service_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const user = await db.user.findUniqueOrThrow({ where: { id: run.json.id }, include: { wallets: { orderBy: { isPrimary: 'desc' } } } });
      expect(user.palmVerified).toBe(true);
      expect(user.passwordHash).toMatch(/^scrypt\$/);
      expect(user.passwordHash).not.toContain('correct horse');
      expect(user.wallets.map((w) => [w.address, w.isPrimary])).toEqual([
        [WALLET, true],
        ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', false],
      ]);
      await db.user.delete({ where: { id: run.json.id } });
    });

    it('refuses a bad wallet, a duplicate email or a short password and creates nothing', async () => {
      const email = uniqueEmail();
      expectRefused(
        await cli('user:create', '--email', email, '--password', 'correct horse', '--wallet', WALLET.toLowerCase()),
        /no EIP-55 checksum.*0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/,
      );
      expectRefused(await cli('user:create', '--email', email, '--password', 'short'), /at least 8 characters/);
      expect(await db.user.count({ where: { email } })).toBe(0);
      const user = await newUser();
      expectRefused(await cli('user:create', '--email', user.email.toUpperCase(), '--password', 'correct horse'), /already exists/);
    });
  });

  describe('user:credential', () => {
    it('adds a credential of preset claims', async () => {
      const user = await newUser();
      const run = await cli(
        'user:credential',
        '--email',
        user.email,
        '--source',
        'kyc',
        '--claims',
        '{"legal_name":"A B","date_of_birth":"1990-01-02"}',
        '--expires-at',
        '2030-01-01T00:00:00Z',
        '--status',
        'pending',
      );
      expect(run.code).toBe(0);
      const credential = await db.userCredential.findUniqueOrThrow({ where: { id: run.json.id } });
      expect(credential).toMatchObject({ userId: user.id, source: 'kyc', status: 'pending', claims: { legal_name: 'A B', date_of_birth: '1990-01-02' } });
      expect(credential.expiresAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    });

    it.each([
      [['--claims', 'not json'], /--claims is not valid JSON/],
      [['--claims', '[1]'], /must be a JSON object/],
      [['--claims', '{"shoe_size":44}'], /unknown presets: shoe_size/],
      // Would be served as unavailable ("malformed") for ever: refused where it can be fixed.
      [
        ['--claims', '{"social_accounts":[{"provider":"x","handle":"@a"}]}'],
        /social_accounts must be an array of \{"provider": string, "handle": string, "verified": boolean\}/,
      ],
      [
        ['--claims', '{"date_of_birth":"02/01/1990","nationality":"Germany"}'],
        /date_of_birth must be a date such as "1990-04-01"; nationality must be an ISO 3166-1 alpha-2 code/,
      ],
      [['--claims', '{"residency_region":"Atlantis"}'], /residency_region must be one of /],
      // Stored, these would never be served: derived presets come from their parent, these from the user record.
      [['--claims', '{"age_over_18":true}'], /--claims age_over_18 is derived from date_of_birth: give date_of_birth instead/],
      [['--claims', '{"palm_verified":true}'], /--claims palm_verified comes from the user’s palm verification/],
      [['--claims', '{}', '--status', 'maybe'], /--status must be one of valid, pending, revoked/],
      [['--claims', '{}', '--expires-at', 'soon'], /--expires-at soon is not an ISO 8601 date/],
    ])('refuses %j', async (flags, pattern) => {
      const user = await newUser();
      expectRefused(await cli('user:credential', '--email', user.email, '--source', 'kyc', ...flags), pattern);
      expect(await db.userCredential.count({ where: { userId: user.id } })).toBe(0);
    });

    it('refuses an unknown user', async () => {
      expectRefused(
        await cli('user:credential', '--email', 'nobody@test.example', '--source', 'kyc', '--claims', '{}'),
        /no user with email nobody@test.example/,
      );
    });
  });

  describe('org:create and org:add-member', () => {
    it('creates an organization owned by an existing user', async () => {
      const { org, owner } = await newOrg();
      expect(org).toEqual({ id: expect.any(String), name: 'Acme', owner_user_id: owner.id });
      const members = await db.organizationMember.findMany({ where: { organizationId: org.id } });
      expect(members.map((m) => [m.userId, m.role])).toEqual([[owner.id, 'owner']]);
    });

    it('adds a member with a role, and refuses unknown references', async () => {
      const { org } = await newOrg();
      const dev = await newUser();
      const run = await cli('org:add-member', '--org', org.id, '--email', dev.email, '--role', 'developer');
      expect(run.json).toEqual({ org_id: org.id, user_id: dev.id, role: 'developer' });
      expectRefused(await cli('org:add-member', '--org', org.id, '--email', dev.email, '--role', 'admin'), /--role must be one of owner, developer/);
      expectRefused(
        await cli('org:add-member', '--org', '00000000-0000-0000-0000-000000000000', '--email', dev.email, '--role', 'developer'),
        /no organization with id/,
      );
      expectRefused(await cli('org:add-member', '--org', 'not-a-uuid', '--email', dev.email, '--role', 'developer'), /no organization with id not-a-uuid/);
      expectRefused(await cli('org:create', '--name', '  ', '--owner-email', dev.email), /--name must not be empty/);
      expectRefused(await cli('org:create', '--name', 'X', '--owner-email', 'ghost@test.example'), /no user with email/);
    });
  });

  describe('client:create', () => {
    it('creates a confidential client with a hashed secret and its policy', async () => {
      const { org } = await newOrg();
      const run = await cli(
        'client:create',
        '--org',
        org.id,
        '--name',
        'App',
        '--redirect-uri',
        'https://app.example/cb',
        '--redirect-uri',
        'http://localhost:3000/cb',
        '--scopes',
        'openid identity:read',
        '--requires-palm-verification',
        '--preset-cache-ttl',
        '600',
        '--access-token-ttl',
        '300',
      );
      expect(run.code).toBe(0);
      expect(run.json.client_id).toMatch(/^svc_client_/);
      expect(run.json.client_secret).toMatch(/^svcs_[0-9A-Za-z]{43}$/);
      const app = await db.application.findUniqueOrThrow({ where: { clientId: run.json.client_id } });
      expect(app).toMatchObject({
        isPublic: false,
        requiresPalmVerification: true,
        presetCacheTtlSeconds: 600,
        accessTokenTtlSeconds: 300,
        redirectUris: ['https://app.example/cb', 'http://localhost:3000/cb'],
        allowedScopes: ['openid', 'identity:read'],
      });
      expect(app.clientSecretHash).not.toContain(run.json.client_secret);
      expect(app.clientSecretHash).toHaveLength(64);
    });

    it('creates a public client without a secret', async () => {
      const { org } = await newOrg();
      const run = await cli('client:create', '--org', org.id, '--name', 'SPA', '--redirect-uri', 'com.example.app:/cb', '--scopes', 'openid', '--public');
      expect(run.json.client_secret).toBeNull();
      expect((await db.application.findUniqueOrThrow({ where: { clientId: run.json.client_id } })).clientSecretHash).toBeNull();
    });

    it.each([
      [['--redirect-uri', 'http://evil.example/cb'], /https \(http is allowed only for localhost\)/],
      [['--redirect-uri', 'https://app.example/cb#frag'], /must not contain a fragment/],
      [['--redirect-uri', '/relative'], /is not an absolute URI/],
      [['--redirect-uri', 'javascript:alert(1)'], /scheme javascript: which is not allowed/],
      [['--redirect-uri', 'https://app.example/cb', '--scopes', 'openid admin:all'], /unknown scopes: admin:all/],
      [['--redirect-uri', 'https://app.example/cb', '--access-token-ttl', '5'], /--access-token-ttl must be a whole number of seconds from 60/],
      [['--redirect-uri', 'https://app.example/cb', '--preset-cache-ttl', 'ten'], /--preset-cache-ttl must be a whole number/],
    ])('refuses %j', async (flags, pattern) => {
      const { org } = await newOrg();
      const args = ['client:create', '--org', org.id, '--name', 'App', ...flags];
      if (!flags.includes('--scopes')) args.push('--scopes', 'openid');
      expectRefused(await cli(...args), pattern);
      expect(await db.application.count({ where: { organizationId: org.id } })).toBe(0);
    });
  });

  describe('wallets and palm status', () => {
    it('registers a wallet (primary when asked), removes it and sets palm verification', async () => {
      const user = await newUser(['--wallet', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB']);
      const run = await cli('wallet:register', '--email', user.email, '--wallet', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', '--primary');
      expect(run.json).toEqual({ id: expect.any(String), user_id: user.id, address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', is_primary: true });
      const primaries = await db.wallet.findMany({ where: { userId: user.id, isPrimary: true } });
      expect(primaries.map((w) => w.address)).toEqual(['0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']);
      expectRefused(await cli('wallet:register', '--email', user.email, '--wallet', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'), /already registered/);
      expectRefused(await cli('wallet:register', '--email', user.email, '--wallet', '0x123'), /must have 40 hexadecimal digits/);
      expect((await cli('wallet:remove', '--wallet', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb')).json).toEqual({
        address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
        removed: true,
      });
      expectRefused(await cli('wallet:remove', '--wallet', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'), /is not registered/);
      expect((await cli('user:palm', '--email', user.email)).json).toEqual({ id: user.id, palm_verified: true });
      expect((await cli('user:palm', '--email', user.email, '--revoke')).json).toEqual({ id: user.id, palm_verified: false });
    });
  });

  describe('keys:rotate', () => {
    it('publishes a new identity-provider key and keeps the old one until its tokens expire', async () => {
      const first = (await cli('keys:rotate', '--service', 'identity-provider')).json;
      const second = await cli('keys:rotate', '--service', 'identity-provider', '--activate-in', '300');
      expect(second.json.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const keys = await db.signingKey.findMany({ where: { kid: { in: [first.kid, second.json.kid] } } });
      const old = keys.find((k) => k.kid === first.kid)!;
      const fresh = keys.find((k) => k.kid === second.json.kid)!;
      expect(fresh).toMatchObject({
        status: 'active',
        algorithm: 'RS256',
        publicKey: expect.objectContaining({ kty: 'RSA', kid: fresh.kid, alg: 'RS256', use: 'sig' }),
      });
      expect(fresh.activatesAt.getTime() - fresh.createdAt.getTime()).toBe(300_000);
      expect(old.status).toBe('retiring');
      expect(old.publishUntil!.getTime()).toBeGreaterThan(fresh.activatesAt.getTime());
    });

    it('creates a did:key BLS12-381 key for the credential issuer', async () => {
      const run = await cli('keys:rotate', '--service', 'credential-issuer');
      expect(run.json.kid).toMatch(/^did:key:zUC[67][1-9A-HJ-NP-Za-km-z]+#zUC[67]/);
      const key = await db.signingKey.findUniqueOrThrow({ where: { kid: run.json.kid } });
      expect(key.algorithm).toBe('Bls12381G2');
    });

    it('refuses an unknown service', async () => {
      expectRefused(await cli('keys:rotate', '--service', 'mailer'), /--service must be one of identity-provider, credential-issuer/);
    });
  });
});

describe('seed:demo', () => {
  describe('list and show', () => {
    it('list and show users, organizations, clients and keys, never a secret, hash or claim value', async () => {
      const { org, owner } = await newOrg();
      expect((await cli('user:credential', '--email', owner.email, '--source', 'kyc', '--claims', '{"legal_name":"Ada Lovelace"}')).code).toBe(0);
      const client = (await cli('client:create', '--org', org.id, '--name', 'Listed', '--redirect-uri', 'https://app.example/cb', '--scopes', 'openid')).json;
      const key = (await cli('apikey:create', '--org', org.id, '--permissions', 'wallet:verify', '--name', 'listed')).json;

      const user = await cli('user:show', '--email', owner.email);
      expect(user.json).toMatchObject({
        email: owner.email,
        organizations: [{ id: org.id, role: 'owner' }],
        credentials: [{ source: 'kyc', claim_names: ['legal_name'] }],
      });
      expect((await cli('user:list', '--limit', '1000')).json.users).toContainEqual(expect.objectContaining({ id: owner.id, email: owner.email }));
      expect((await cli('org:list')).json.organizations).toContainEqual(expect.objectContaining({ id: org.id, owner: owner.email, clients: 1, api_keys: 1 }));
      const shown = await cli('org:show', '--id', org.id);
      expect(shown.json).toMatchObject({ id: org.id, clients: [{ client_id: client.client_id }], api_keys: [{ id: key.id, name: 'listed' }] });
      expect((await cli('client:list', '--org', org.id)).json.clients).toEqual([
        expect.objectContaining({ client_id: client.client_id, redirect_uris: ['https://app.example/cb'] }),
      ]);
      expect((await cli('client:show', '--client-id', client.client_id)).json).toMatchObject({ client_authentication: 'client_secret', public: false });
      expect((await cli('apikey:list', '--org', org.id)).json.api_keys).toEqual([expect.objectContaining({ id: key.id, permissions: ['wallet:verify'] })]);
      expect((await cli('apikey:show', '--id', key.id)).json).toMatchObject({ id: key.id, prefix: key.key.split('_')[1] });

      const everything = [user, shown, await cli('client:show', '--client-id', client.client_id), await cli('apikey:show', '--id', key.id)]
        .map((r) => r.out)
        .join('');
      for (const secret of [client.client_secret, key.key, 'Ada Lovelace', 'correct horse']) expect(everything).not.toContain(secret);
      expect(everything).not.toMatch(/hash/i);
    });

    it('name what they cannot find', async () => {
      expectRefused(await cli('user:show', '--email', 'nobody@test.example'), /no user with email nobody@test.example/);
      expectRefused(await cli('org:show', '--id', 'nope'), /no organization with id nope/);
      expectRefused(await cli('client:show', '--client-id', 'nope'), /no client with client_id nope/);
      expectRefused(await cli('apikey:show', '--id', '6d7f2d57-4b5a-4d63-9a0e-6f1c0f0e9b11'), /no API key with id/);
      expectRefused(await cli('user:list', '--limit', '0'), /--limit must be between 1 and 1000/);
    });
  });

  it('creates the demo organization, users, clients and keys once', async () => {
    const run = await cli('seed:demo');
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({
      organization: { name: 'Demo Organization' },
      users: { palm_verified: { email: 'alice@demo.example', password: expect.any(String) }, not_palm_verified: { email: 'bob@demo.example' } },
      clients: { confidential: { client_secret: expect.stringMatching(/^svcs_/) }, public: { client_secret: null } },
      api_keys: { wallet_verify: { key: expect.stringMatching(/^svck_/) }, credential_issuer: { key: expect.stringMatching(/^svck_/) } },
    });
    const credentials = await db.userCredential.findMany({ where: { userId: run.json.users.palm_verified.id } });
    const claimed = new Set(credentials.flatMap((c) => Object.keys(c.claims as object)));
    const { PRESETS } = await import('@svc/presets');
    expect(PRESETS.filter((p) => p.origin === 'credential' && !claimed.has(p.name)).map((p) => p.name)).toEqual([]);
    expectRefused(await cli('seed:demo'), /demo data already exists/);
  });
});
