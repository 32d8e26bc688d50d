import { verifyClientSecret } from '@svc/secrets';
import { invalidClient, invalidRequest } from '../errors.js';
import type { Application } from './application.js';
import { isFapi } from './fapi.js';
import type { Request } from 'express';
import type { Config } from '../config.js';
import { certifiesKeyOf, type ClientCertificate, clientCertificate } from './client-certificate.js';
import { ClientAssertions } from './client-assertions.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { Clients } from './clients.js';

/** What an endpoint that authenticates clients needs: the registry, assertion checks, and the failure limits that guard both. */
export interface ClientAuthDeps {
  clients: Clients;
  assertions: ClientAssertions;
  limits: RequestLimits;
}

export interface PresentedCredentials {
  clientId?: string | undefined;
  secret?: string | undefined;
  assertion?: string | undefined;
  /**
   * How the client authenticates: a secret in the Authorization header (client_secret_basic) or
   * the body (client_secret_post), a signed assertion (private_key_jwt), or not at all (public).
   */
  method: 'basic' | 'post' | 'private_key_jwt' | 'none';
  /** A certificate the TLS-terminating proxy verified (RFC 8705); it authenticates a self_signed_tls_client_auth client. */
  certificate?: ClientCertificate | undefined;
}

export interface CredentialFields {
  client_id?: unknown;
  client_secret?: unknown;
  client_assertion?: unknown;
  client_assertion_type?: unknown;
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw invalidRequest('Malformed HTTP Basic credentials: the client id and secret must use valid percent-encoding (RFC 6749 §2.3.1)');
  }
}

/** Reads what the request presents: client_secret_basic (RFC 6749 §2.3.1), _post, or private_key_jwt. */
export function credentialsFrom(authorization: string | undefined, body: CredentialFields): PresentedCredentials {
  const bodyClient = typeof body.client_id === 'string' ? body.client_id : undefined;
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw invalidClient('Malformed Basic credentials', true);
    const clientId = percentDecoded(decoded.slice(0, i));
    const secret = percentDecoded(decoded.slice(i + 1));
    if (bodyClient !== undefined && bodyClient !== clientId) throw invalidClient('client_id differs from the authenticated client', true);
    return { clientId, secret, method: 'basic' };
  }
  if (typeof body.client_assertion === 'string' && body.client_assertion_type !== undefined) {
    const clientId = bodyClient ?? ClientAssertions.claimedClient(body.client_assertion);
    return { clientId, assertion: body.client_assertion, method: 'private_key_jwt' };
  }
  if (typeof body.client_secret === 'string') return { clientId: bodyClient, secret: body.client_secret, method: 'post' };
  return { clientId: bodyClient, method: 'none' };
}

/** What the request presents: credentialsFrom's, and the client certificate when mutual TLS is configured. */
export function presentedCredentials(config: Pick<Config, 'MTLS_CLIENT_CERT_HEADER'>, req: Request, body: CredentialFields): PresentedCredentials {
  return { ...credentialsFrom(req.headers.authorization, body), certificate: clientCertificate(config, req) };
}

/**
 * A confidential client proves a secret (compared in constant time against its SHA-256) or signs
 * an assertion with a registered key; a public client sends only its id and relies on PKCE. A
 * confidential client that proves nothing is refused.
 */
export async function authenticateClient(clients: Clients, presented: PresentedCredentials, assertions: ClientAssertions): Promise<Application> {
  const basic = presented.method === 'basic';
  if (!presented.clientId) throw invalidClient('Client authentication is required', basic);
  const app = await clients.find(presented.clientId);
  if (!app) throw invalidClient(clients.unknown(presented.clientId), basic);
  if (app.isPublic) {
    if (presented.method !== 'none') throw invalidClient('A public client has no secret', basic);
    return app;
  }
  // RFC 8705 §2.2: the certificate the proxy verified carries one of the client's registered keys.
  if (app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth') {
    if (presented.method !== 'none' || !presented.certificate || !certifiesKeyOf(presented.certificate, app.jwks))
      throw invalidClient('This client authenticates with its client certificate (self_signed_tls_client_auth), whose key it registered', basic);
    return app;
  }
  if (presented.method === 'private_key_jwt') {
    await assertions.verify(app, presented.assertion!);
    return app;
  }
  // FAPI 2.0 §5.3.2.1 (4): only asymmetric client authentication.
  if (isFapi(app)) throw invalidClient('A FAPI 2.0 client authenticates with private_key_jwt or its client certificate', basic);
  if (!presented.secret || !app.clientSecretHash || !verifyClientSecret(presented.secret, app.clientSecretHash)) {
    throw invalidClient('Client authentication failed', basic);
  }
  return app;
}

/**
 * authenticateClient, a failure counted against the source's failures for that client and a
 * source in its wait refused (RequestLimits.guardFailures): how every endpoint that takes client
 * credentials checks them.
 */
export function authenticateGuarded(deps: ClientAuthDeps, presented: PresentedCredentials, source: string | undefined): Promise<Application> {
  return deps.limits.guardFailures(presented.clientId, source ?? 'unknown', () => authenticateClient(deps.clients, presented, deps.assertions));
}
