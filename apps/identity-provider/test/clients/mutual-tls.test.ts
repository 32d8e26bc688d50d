import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import { arrange, buildIdp } from '../helpers.js';

// RFC 8705 behind a real TLS terminator: a TLS server of this test asks each client for its
// certificate and passes it on to the identity provider in the Client-Cert header (RFC 9440), as
// a deployment's proxy does (removing any such header a client sent itself).
const scratch = mkdtempSync(join(tmpdir(), 'mtls-'));
const HEADER = 'client-cert';

interface Pem {
  key: Buffer;
  cert: Buffer;
}
/** A self-signed certificate and its key, made with openssl (a P-256 key). */
function selfSigned(name: string): Pem {
  const [key, cert] = [join(scratch, `${name}.key`), join(scratch, `${name}.crt`)];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

let idp: ReturnType<typeof buildIdp>;
let db: Db;
let backend: Server;
let terminator: Server;
let terminatorPort: number;
let server: Pem;
let client: Pem;
let stranger: Pem;

beforeAll(async () => {
  // The terminator runs on this machine: loopback is the trusted proxy.
  idp = buildIdp({ MTLS_CLIENT_CERT_HEADER: HEADER, TRUST_PROXY: 'loopback' });
  db = testDb();
  [server, client, stranger] = [selfSigned('terminator'), selfSigned('client'), selfSigned('stranger')];
  backend = createHttpServer(idp.app).listen(0, '127.0.0.1');
  await new Promise((r) => backend.once('listening', r));
  const backendPort = (backend.address() as AddressInfo).port;
  terminator = createHttpsServer({ ...server, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const headers = { ...req.headers };
    delete headers[HEADER];
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    if (peer?.raw) headers[HEADER] = `:${peer.raw.toString('base64')}:`;
    const upstream = httpRequest({ host: '127.0.0.1', port: backendPort, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  }).listen(0, '127.0.0.1');
  await new Promise((r) => terminator.once('listening', r));
  terminatorPort = (terminator.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => terminator.close(r));
  await new Promise((r) => backend.close(r));
  await idp.deps.close();
  await db.$disconnect();
  rmSync(scratch, { recursive: true, force: true });
});

/** A request through the terminator, with a client certificate or none, as a real TLS client sends it. */
function call(
  method: 'GET' | 'POST',
  path: string,
  options: { tls?: Pem; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: terminatorPort,
        method,
        path,
        ca: server.cert,
        ...(options.tls ?? {}),
        headers: { ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const thumbprint = (pem: Pem) => createHash('sha256').update(new X509Certificate(pem.cert).raw).digest('base64url');
const jwkOf = (pem: Pem) => ({ ...new X509Certificate(pem.cert).publicKey.export({ format: 'jwk' }), kid: 'mtls', alg: 'ES256' });

async function mtlsClient(extra: { fapiProfile?: 'fapi2' } = {}) {
  const a = await arrange(db);
  return createClient(a.ctx, {
    org: a.org.id,
    name: 'Certified App',
    redirectUris: ['https://app.example/callback'],
    scopes: 'openid identity:read',
    tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
    jwks: JSON.stringify({ keys: [jwkOf(client)] }),
    ...extra,
  });
}

describe('self_signed_tls_client_auth and certificate-bound tokens (RFC 8705)', () => {
  it('authenticates the client by its certificate and binds its token to it', async () => {
    const registered = await mtlsClient();
    const token = await call('POST', '/oauth/token', { tls: client, form: { grant_type: 'client_credentials', client_id: registered.client_id } });
    expect(token.status).toBe(200);
    expect(token.body.token_type).toBe('Bearer');
    expect(decodeJwt(token.body.access_token as string).cnf).toEqual({ 'x5t#S256': thumbprint(client) });
    const bearer = { authorization: `Bearer ${token.body.access_token}` };
    expect((await call('GET', '/v2/authorizations', { tls: client, headers: bearer })).status).toBe(200);
    // Another certificate, none, or a Client-Cert header a client wrote itself: the token is no good.
    expect((await call('GET', '/v2/authorizations', { tls: stranger, headers: bearer })).status).toBe(401);
    expect((await call('GET', '/v2/authorizations', { headers: bearer })).status).toBe(401);
    const forged = { ...bearer, [HEADER]: `:${new X509Certificate(client.cert).raw.toString('base64')}:` };
    expect((await call('GET', '/v2/authorizations', { headers: forged })).status).toBe(401);
    const introspected = await call('POST', '/oauth/introspect', {
      tls: client,
      form: { client_id: registered.client_id, token: token.body.access_token as string },
    });
    expect(introspected.body).toMatchObject({ active: true, cnf: { 'x5t#S256': thumbprint(client) } });
  });

  it('refuses a certificate that carries the client’s public key but was not signed with it (a header a misconfigured proxy let through)', async () => {
    const registered = await mtlsClient();
    // Built around the client's public key, signed with another: anyone can make one.
    const [csr, pub, forged] = ['forged.csr', 'client.pub', 'forged.crt'].map((f) => join(scratch, f)) as [string, string, string];
    execFileSync('openssl', ['x509', '-in', join(scratch, 'client.crt'), '-pubkey', '-noout', '-out', pub], { stdio: 'ignore' });
    execFileSync('openssl', ['req', '-new', '-key', join(scratch, 'stranger.key'), '-subj', '/CN=forged', '-out', csr], { stdio: 'ignore' });
    execFileSync('openssl', ['x509', '-req', '-in', csr, '-signkey', join(scratch, 'stranger.key'), '-force_pubkey', pub, '-days', '1', '-out', forged], {
      stdio: 'ignore',
    });
    const der = new X509Certificate(readFileSync(forged)).raw;
    // Straight to the identity provider, as if the terminator had passed the header on.
    const { default: request } = await import('supertest');
    const res = await request(idp.app)
      .post('/oauth/token')
      .set(HEADER, `:${der.toString('base64')}:`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: registered.client_id });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('honours the certificate header only from the proxy TRUST_PROXY names (attack: a public certificate over plain HTTP)', async () => {
    const registered = await mtlsClient();
    const { default: request } = await import('supertest');
    const straight = (target: typeof idp) =>
      request(target.app)
        .post('/oauth/token')
        .set(HEADER, `:${new X509Certificate(client.cert).raw.toString('base64')}:`)
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: registered.client_id });
    // The proxy is elsewhere: this request (from loopback) is a client's, whatever header it wrote.
    const proxyElsewhere = buildIdp({ MTLS_CLIENT_CERT_HEADER: HEADER, TRUST_PROXY: '192.0.2.10' });
    try {
      const refused = await straight(proxyElsewhere);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
    } finally {
      await proxyElsewhere.deps.close();
    }
    // From the trusted proxy's address the same header is the proxy's word.
    expect((await straight(idp)).status).toBe(200);
    // Configured without a proxy to trust (or trusting every peer), the service does not start.
    for (const TRUST_PROXY of [undefined, 'false', 'true'])
      expect(() => buildIdp({ MTLS_CLIENT_CERT_HEADER: HEADER, ...(TRUST_PROXY ? { TRUST_PROXY } : {}) })).toThrow(/MTLS_CLIENT_CERT_HEADER: set TRUST_PROXY/);
  });

  it('authenticates it by its certificate at the client user-token endpoint too', async () => {
    const registered = await mtlsClient();
    const ask = (tls?: Pem) =>
      call('POST', '/oauth/client/user-token', { ...(tls ? { tls } : {}), form: { client_id: registered.client_id, email: 'nobody@example.com' } });
    const withCertificate = await ask(client);
    // Authenticated: what remains is that nobody of that email authorized it.
    expect(withCertificate.status).not.toBe(401);
    expect(withCertificate.body.error).not.toBe('invalid_client');
    expect((await ask()).status).toBe(401);
  });

  it('refuses the client without its certificate, or with another', async () => {
    const registered = await mtlsClient();
    const form = { grant_type: 'client_credentials', client_id: registered.client_id };
    for (const tls of [undefined, stranger]) {
      const res = await call('POST', '/oauth/token', { ...(tls ? { tls } : {}), form });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }
  });

  it('serves a FAPI 2.0 client: certificate-bound instead of DPoP, PS256 tokens', async () => {
    const registered = await mtlsClient({ fapiProfile: 'fapi2' });
    const token = await call('POST', '/oauth/token', { tls: client, form: { grant_type: 'client_credentials', client_id: registered.client_id } });
    expect(token.status).toBe(200);
    expect(decodeProtectedHeader(token.body.access_token as string).alg).toBe('PS256');
    expect(decodeJwt(token.body.access_token as string).cnf).toEqual({ 'x5t#S256': thumbprint(client) });
  });

  it('is advertised only where a terminator passes certificates', async () => {
    const discovery = await call('GET', '/.well-known/openid-configuration');
    expect(discovery.body).toMatchObject({ tls_client_certificate_bound_access_tokens: true });
    expect(discovery.body.token_endpoint_auth_methods_supported).toContain('self_signed_tls_client_auth');
    const plain = buildIdp();
    try {
      const { default: request } = await import('supertest');
      const body = (await request(plain.app).get('/.well-known/openid-configuration')).body;
      expect(body.tls_client_certificate_bound_access_tokens).toBeUndefined();
      expect(body.token_endpoint_auth_methods_supported).not.toContain('self_signed_tls_client_auth');
    } finally {
      await plain.deps.close();
    }
  });
});
