import type { ApiSpec } from '@svc/http';
import {
  ZApiKeyIdParams,
  ZApiKeyList,
  ZApiKeyView,
  ZApplicationList,
  ZApplicationView,
  ZClientIdParams,
  ZCreateApiKeyRequest,
  ZCreateApplicationRequest,
  ZCreatedApiKey,
  ZCreatedApplication,
  ZRotatedSecret,
  ZUpdateApplicationRequest,
} from '@svc/schemas';
import { developer, developerRefused as refused, developerWriteRefused as writeRefused } from '../openapi-responses.js';

/** What an organization's developers register: applications (OAuth clients) and API keys for areas B and C. */
export const APPLICATION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/v2/developer/applications',
    tag: 'Applications',
    summary: 'The organization’s applications (OAuth clients)',
    security: developer,
    responses: {
      200: { description: 'Every application, revoked ones too', schema: ZApplicationList },
      ...refused({ 404: 'Not a member of any organization' }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/applications',
    tag: 'Applications',
    summary: 'Register an application: exact redirect URIs (https, or http on loopback), scopes, public or confidential',
    security: developer,
    body: ZCreateApplicationRequest,
    responses: {
      201: { description: 'The application; client_secret is shown this once (null for public and private_key_jwt clients)', schema: ZCreatedApplication },
      ...writeRefused({ 404: 'Not a member of any organization' }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/applications/{client_id}',
    tag: 'Applications',
    summary: 'One application',
    security: developer,
    params: ZClientIdParams,
    responses: {
      200: { description: 'The application', schema: ZApplicationView },
      ...refused({ 400: 'Invalid request', 404: 'No such application in your organization' }),
    },
  },
  {
    method: 'patch',
    path: '/v2/developer/applications/{client_id}',
    tag: 'Applications',
    summary: 'Change an application’s settings (what is sent changes; the rest stays)',
    security: developer,
    params: ZClientIdParams,
    body: ZUpdateApplicationRequest,
    responses: {
      200: { description: 'The application as it is now', schema: ZApplicationView },
      ...writeRefused({ 404: 'No such application in your organization', 409: 'The application is revoked, or has no keys to change' }),
    },
  },
  {
    method: 'delete',
    path: '/v2/developer/applications/{client_id}',
    tag: 'Applications',
    summary: 'Revoke an application: its tokens are refused from now on, its client_id is never reused',
    security: developer,
    params: ZClientIdParams,
    responses: {
      200: { description: 'The application, revoked', schema: ZApplicationView },
      ...writeRefused({ 404: 'No such application in your organization' }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/applications/{client_id}/rotate-secret',
    tag: 'Applications',
    summary: 'A new client secret, shown once; the old one stops working',
    security: developer,
    params: ZClientIdParams,
    responses: {
      200: { description: 'The new secret', schema: ZRotatedSecret },
      ...writeRefused({ 404: 'No such application in your organization', 409: 'Revoked, or the application has no secret (public, private_key_jwt)' }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/api-keys',
    tag: 'API keys',
    summary: 'The organization’s API keys for wallet verify and the credential issuer (never the keys themselves)',
    security: developer,
    responses: { 200: { description: 'Every key, disabled ones too', schema: ZApiKeyList }, ...refused({ 404: 'Not a member of any organization' }) },
  },
  {
    method: 'post',
    path: '/v2/developer/api-keys',
    tag: 'API keys',
    summary: 'An API key with its permissions and limits (shown once)',
    security: developer,
    body: ZCreateApiKeyRequest,
    responses: { 201: { description: 'The key, shown this once', schema: ZCreatedApiKey }, ...writeRefused({ 404: 'Not a member of any organization' }) },
  },
  {
    method: 'post',
    path: '/v2/developer/api-keys/{id}/disable',
    tag: 'API keys',
    summary: 'Disable an API key now; disabling it again changes nothing',
    security: developer,
    params: ZApiKeyIdParams,
    responses: { 200: { description: 'The key, disabled', schema: ZApiKeyView }, ...writeRefused({ 404: 'No such API key in your organization' }) },
  },
];
