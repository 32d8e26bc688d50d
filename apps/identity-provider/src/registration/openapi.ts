import type { ApiSpec } from '@svc/http';
import { ZClientIdParams, ZClientRegistration, ZClientRegistrationRequest } from '@svc/schemas';
import { oauthErrors } from '../openapi-responses.js';

const refused = (extra: Record<number, string>) =>
  oauthErrors({
    401: 'invalid_token: the token is missing, unknown, expired, or not this client’s',
    429: 'Too many failed attempts from this address',
    ...extra,
  });

/** RFC 7591 registration and RFC 7592 management of a registered client. */
export const REGISTRATION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/oauth/register',
    tag: 'Registration',
    summary: 'Register a client (RFC 7591) with an initial access token from the developer console',
    description:
      'Metadata is checked as the console checks it: exact redirect URIs (https, or http on loopback), scopes this server has, a JWK Set of public keys for private_key_jwt. Unknown members are ignored. The answer carries the client secret (confidential clients) and a registration access token, each shown once.',
    security: [['initialAccessToken']],
    body: ZClientRegistrationRequest,
    responses: {
      201: { description: 'Registered (RFC 7591 §3.2.1)', schema: ZClientRegistration },
      ...refused({ 400: 'invalid_redirect_uri or invalid_client_metadata (RFC 7591 §3.2.2), `details` naming each member' }),
    },
  },
  {
    method: 'get',
    path: '/oauth/register/{client_id}',
    tag: 'Registration',
    summary: 'Read a registered client’s metadata (RFC 7592)',
    security: [['registrationAccessToken']],
    params: ZClientIdParams,
    responses: { 200: { description: 'The registered metadata', schema: ZClientRegistration }, ...refused({ 400: 'Invalid request' }) },
  },
  {
    method: 'put',
    path: '/oauth/register/{client_id}',
    tag: 'Registration',
    summary: 'Replace a registered client’s metadata (RFC 7592); how it authenticates cannot change',
    security: [['registrationAccessToken']],
    params: ZClientIdParams,
    body: ZClientRegistrationRequest,
    responses: {
      200: { description: 'The metadata as registered now', schema: ZClientRegistration },
      ...refused({ 400: 'invalid_redirect_uri or invalid_client_metadata, `details` naming each member' }),
    },
  },
  {
    method: 'delete',
    path: '/oauth/register/{client_id}',
    tag: 'Registration',
    summary: 'Delete a registered client (RFC 7592): revoked, its tokens refused',
    security: [['registrationAccessToken']],
    params: ZClientIdParams,
    responses: { 204: { description: 'Deleted' }, ...refused({ 400: 'Invalid request' }) },
  },
];
