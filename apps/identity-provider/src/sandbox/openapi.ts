import { errorResponses, type ApiSpec } from '@svc/http';
import {
  ZActionParams,
  ZApproveResponse,
  ZAuthorizationIdParams,
  ZCreatedTestUser,
  ZCreateTestAuthorizationRequest,
  ZCreateTestUserRequest,
  ZDataWindowEnded,
  ZExpiredAccessToken,
  ZTestUserList,
  ZTestUserParams,
} from '@svc/schemas';
import { developer } from '../openapi-responses.js';

/** A sandbox application's own credentials also make test users and authorize them, for itself only. */
const security = [['clientBasic'], ...developer!] as ApiSpec['operations'][number]['security'];
const refused = (extra: Record<number, string> = {}) =>
  errorResponses({
    401: 'No developer session, personal access token or sandbox client credentials',
    404: 'Production: test data exists only in the sandbox (or, in the sandbox, not one of your organization’s)',
    ...extra,
  });
const invalid = { 400: 'Invalid request: `details` names each field and why' };

/** The sandbox's test data: synthetic people and browserless authorizations (404 in production). */
export const SANDBOX_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/v2/sandbox/users',
    tag: 'Sandbox',
    summary: 'A test user with any preset values and verification statuses',
    description:
      'Values are checked as `admin user:credential` checks them. A derived preset (age_over_18, is_human, …) is given through its parent field; palm_verified and wallet_address set the user record. `statuses` makes a preset’s verification pending, expired or revoked.',
    security,
    body: ZCreateTestUserRequest,
    responses: {
      201: { description: 'The test user, its password shown this once', schema: ZCreatedTestUser },
      ...refused({
        ...invalid,
        409: 'Email or wallet taken, or the organization has 1000 test users',
        429: '600 test users and authorizations an hour per organization',
      }),
    },
  },
  {
    method: 'get',
    path: '/v2/sandbox/users',
    tag: 'Sandbox',
    summary: 'The organization’s test users',
    security,
    responses: { 200: { description: 'Every test user of the organization', schema: ZTestUserList }, ...refused() },
  },
  {
    method: 'delete',
    path: '/v2/sandbox/users/{user_id}',
    tag: 'Sandbox',
    summary: 'Delete a test user, with its data, sessions and authorizations (its tokens stop working); developers only',
    security: developer,
    params: ZTestUserParams,
    responses: { 204: { description: 'Deleted' }, ...refused({ ...invalid, 409: 'Asked with an application’s credentials: a developer deletes' }) },
  },
  {
    method: 'delete',
    path: '/v2/sandbox/actions/{action}/proofs',
    tag: 'Sandbox',
    summary: 'Forget every proof of one of your actions, so that tests can prove it again',
    description:
      'The counts go; the nullifiers do not change (a test user proving the action again gets the same nullifier, counted from 1). The action itself stays.',
    security,
    params: ZActionParams,
    responses: { 204: { description: 'Forgotten' }, ...refused({ 400: 'Not an action name', 404: 'Production, or no such action of your organization' }) },
  },
  {
    method: 'post',
    path: '/v2/sandbox/authorizations',
    tag: 'Sandbox',
    summary: 'Authorize an application for a test user without a browser: the approval, with a code to exchange',
    description:
      'Checked as /oauth/authorize checks it (your application, its exact redirect URI, its scopes, an S256 code_challenge); the test user approves every requested scope. The scopes come as `scope`, space-separated as in /oauth/authorize, or as `scopes`, an array as applications list them: exactly one of the two. Exchange the code at /oauth/token with the code_verifier, as usual.',
    security,
    body: ZCreateTestAuthorizationRequest,
    responses: {
      201: { description: 'Approved: the code and where the browser would have gone', schema: ZApproveResponse },
      ...refused({ ...invalid, 429: '600 test users and authorizations an hour per organization' }),
    },
  },
  {
    method: 'post',
    path: '/v2/sandbox/authorizations/{authorization_id}/expire-data',
    tag: 'Sandbox',
    summary: 'End an authorization’s data window now (the next data read answers E4010)',
    security,
    params: ZAuthorizationIdParams,
    responses: { 200: { description: 'The window has ended', schema: ZDataWindowEnded }, ...refused({ ...invalid, 409: 'The authorization is not approved' }) },
  },
  {
    method: 'post',
    path: '/v2/sandbox/authorizations/{authorization_id}/expired-access-token',
    tag: 'Sandbox',
    summary: 'An access token of the authorization that has already expired (any data read answers E4041)',
    security,
    params: ZAuthorizationIdParams,
    responses: {
      200: { description: 'A real, expired access token', schema: ZExpiredAccessToken },
      ...refused({ ...invalid, 409: 'The authorization is not approved' }),
    },
  },
];
