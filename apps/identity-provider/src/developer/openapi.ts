import { errorResponses, type ApiSpec } from '@svc/http';
import {
  ZAddMemberRequest,
  ZAuthorizationList,
  ZAuthorizationListQuery,
  ZCreatedInitialAccessToken,
  ZCreatedPersonalAccessToken,
  ZCreateInitialAccessTokenRequest,
  ZCreatePersonalAccessTokenRequest,
  ZAcceptedInvitation,
  ZAcceptInvitationRequest,
  ZInitialAccessTokenList,
  ZInvitation,
  ZMemberList,
  ZMemberParams,
  ZPersonalAccessTokenList,
  ZTokenIdParams,
  ZOrganizationView,
  ZRenameOrganizationRequest,
  ZSignupAccepted,
  ZSignupConfirmed,
  ZSignupConfirmRequest,
  ZSignupRequest,
} from '@svc/schemas';
import { developer, developerRefused, developerWriteRefused, session } from '../openapi-responses.js';

const refused = developerRefused;
const writeRefused = developerWriteRefused;

/** An organization's developers: sign-up, the organization, its members and tokens, and its change list. */
export const DEVELOPER_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/v2/developer/organization',
    tag: 'Developers',
    summary: 'The signed-in developer’s organization',
    security: developer,
    responses: {
      200: { description: 'The organization', schema: ZOrganizationView },
      ...errorResponses({ 401: 'No session or personal access token', 404: 'Not a member of any organization' }),
    },
  },
  {
    method: 'put',
    path: '/v2/developer/organization',
    tag: 'Developers',
    summary: 'Rename the organization (owner only)',
    security: developer,
    body: ZRenameOrganizationRequest,
    responses: {
      200: { description: 'Renamed', schema: ZOrganizationView },
      ...errorResponses({
        400: 'Empty or over-long name',
        401: 'No session',
        403: 'Not the owner, or CSRF token missing',
        404: 'Not a member of any organization',
      }),
    },
  },
  {
    method: 'get',
    path: '/v2/authorizations',
    tag: 'Developers',
    summary: 'The organization’s authorization changes, oldest first',
    security: [['clientBasic'], ...developer!],
    query: ZAuthorizationListQuery,
    responses: {
      200: { description: 'A page of changes', schema: ZAuthorizationList },
      ...errorResponses({ 400: 'Invalid request', 401: 'No client credentials or session', 404: 'Not a member of any organization' }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/signup',
    tag: 'Developers',
    summary: 'Sign up as a developer: a link to confirm is mailed (sandbox; production when CONSOLE_SIGNUP=open or invited)',
    description:
      'Nothing is made yet: the sign-up waits, for 30 minutes, for its address to be proven. A single-use link is mailed to the email; following it (the console page, or POST /v2/developer/signup/confirm with its token and this password) makes the account and its organization, or, with an invitation_token for this email, its membership of the organization that invited it (the only way to sign up where sign-up is by invitation). The answer is the same whether or not the email already has an account; such an address is mailed word of the attempt instead of a link. Limited per source address, and in mails per address.',
    body: ZSignupRequest,
    responses: {
      202: { description: 'A link to confirm was mailed (or, to an address with an account, word of the attempt)', schema: ZSignupAccepted },
      ...errorResponses({
        400: 'Invalid request: `details` names each field and why',
        403: 'signup_closed (sign-up is by invitation here), or invitation_invalid',
        429: 'Too many sign-ups from this address',
      }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/signup/confirm',
    tag: 'Developers',
    summary: 'Follow a sign-up link: makes the account and its organization (or membership)',
    description:
      'The token of the mailed link (its `token` parameter) and the password chosen at sign-up. The link works once, for 30 minutes; a few wrong passwords end it. Then sign in with POST /auth/session.',
    body: ZSignupConfirmRequest,
    responses: {
      201: { description: 'The account and its organization', schema: ZSignupConfirmed },
      ...errorResponses({
        400: 'signup_link_invalid: the link is unknown, used or expired (sign up again), or an invalid request',
        401: 'invalid_password: not the password chosen at sign-up',
        403: 'invitation_invalid: the invitation it would join has ended meanwhile',
      }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/members',
    tag: 'Developers',
    summary: 'The organization’s members and pending invitations',
    security: developer,
    responses: { 200: { description: 'Members, then invitations', schema: ZMemberList }, ...refused({ 404: 'Not a member of any organization' }) },
  },
  {
    method: 'post',
    path: '/v2/developer/members',
    tag: 'Developers',
    summary: 'Invite someone by email (owner only, signed in): the invitation token is shown once, to hand over',
    description:
      'Whoever holds the token and this email joins with the role: at sign-up (invitation_token), or, with an account, by accepting it. The answer is the same whether or not the email has an account. A personal access token cannot invite.',
    security: session,
    body: ZAddMemberRequest,
    responses: {
      201: { description: 'Invited, for 14 days', schema: ZInvitation },
      ...writeRefused({
        401: 'No session (a personal access token cannot invite)',
        403: 'Not an owner, or CSRF token missing',
        404: 'Not a member of any organization',
        409: '100 invitations already pending',
      }),
    },
  },
  {
    method: 'delete',
    path: '/v2/developer/members/{user_id}',
    tag: 'Developers',
    summary: 'Remove a member (owners), or leave (anyone); the founder stays',
    security: session,
    params: ZMemberParams,
    responses: {
      204: { description: 'Removed' },
      ...writeRefused({ 401: 'No session', 404: 'No such member', 409: 'Not an owner, or the founder' }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/invitations/accept',
    tag: 'Developers',
    summary: 'Accept an invitation for your own email, signed in: you join the organization with its role',
    security: session,
    body: ZAcceptInvitationRequest,
    responses: {
      200: { description: 'Joined', schema: ZAcceptedInvitation },
      ...writeRefused({ 401: 'No session', 403: 'invitation_invalid: unknown, expired, used, or for another email' }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/personal-access-tokens',
    tag: 'Developers',
    summary: 'A personal access token for /v2/developer and /v2/sandbox (shown once; 90 days unless asked, at most a year)',
    security: session,
    body: ZCreatePersonalAccessTokenRequest,
    responses: {
      201: { description: 'The token, shown this once', schema: ZCreatedPersonalAccessToken },
      ...writeRefused({
        401: 'No session (a personal access token cannot make another)',
        404: 'Not a member of any organization',
        409: '50 live tokens already',
      }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/personal-access-tokens',
    tag: 'Developers',
    summary: 'Your live personal access tokens (an owner sees the organization’s), never the tokens themselves',
    security: developer,
    responses: { 200: { description: 'Live tokens', schema: ZPersonalAccessTokenList }, ...refused({ 404: 'Not a member of any organization' }) },
  },
  {
    method: 'delete',
    path: '/v2/developer/personal-access-tokens/{id}',
    tag: 'Developers',
    summary: 'Revoke a personal access token now: yours, or any of the organization’s for an owner',
    security: developer,
    params: ZTokenIdParams,
    responses: { 204: { description: 'Revoked' }, ...writeRefused({ 404: 'No such live token of yours' }) },
  },
  {
    method: 'post',
    path: '/v2/developer/initial-access-tokens',
    tag: 'Developers',
    summary: 'An RFC 7591 initial access token: registers clients for this organization until it expires (shown once)',
    security: session,
    body: ZCreateInitialAccessTokenRequest,
    responses: {
      201: { description: 'The token, shown this once', schema: ZCreatedInitialAccessToken },
      ...writeRefused({
        401: 'No session (a personal access token cannot make tokens)',
        404: 'Not a member of any organization',
        409: '50 live tokens already',
      }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/initial-access-tokens',
    tag: 'Developers',
    summary: 'The organization’s live initial access tokens, never the tokens themselves',
    security: developer,
    responses: { 200: { description: 'Live tokens', schema: ZInitialAccessTokenList }, ...refused({ 404: 'Not a member of any organization' }) },
  },
  {
    method: 'delete',
    path: '/v2/developer/initial-access-tokens/{id}',
    tag: 'Developers',
    summary: 'Revoke an initial access token at once',
    security: developer,
    params: ZTokenIdParams,
    responses: { 204: { description: 'Revoked' }, ...writeRefused({ 404: 'No such live token of the organization' }) },
  },
];
