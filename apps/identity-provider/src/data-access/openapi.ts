import { errorResponses, type ApiSpec } from '@svc/http';
import {
  ZOAuthError,
  ZPresetBatchRequest,
  ZPresetBatchResponse,
  ZPresetError,
  ZPresetList,
  ZPresetParams,
  ZPresetResult,
  ZQuery,
  ZQueryResponse,
  ZUserInfo,
  ZUserTokenRequest,
  ZUserTokenResponse,
} from '@svc/schemas';
import { z } from 'zod';
import { dataErrors, FORM, oauthErrors, presetErrors, rateLimited } from '../openapi-responses.js';

/** What a token reads: user info, presets, queries, and a confidential client's user token. */
export const DATA_ACCESS_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'post',
    path: '/oauth/client/user-token',
    tag: 'OAuth',
    summary: 'A confidential client’s token for a user who authorized it',
    body: ZUserTokenRequest,
    bodyTypes: FORM,
    responses: {
      200: { description: 'The token', schema: ZUserTokenResponse },
      ...oauthErrors({ 400: 'Invalid request, invalid_dpop_proof, use_dpop_nonce', 401: 'invalid_client' }),
      ...errorResponses({ 404: 'No active authorization of this client for that user' }),
      ...rateLimited,
    },
  },
  {
    method: 'get',
    path: '/v2/userinfo',
    tag: 'OAuth',
    summary: 'The token’s user, as far as its scopes allow',
    description:
      'service_id needs openid; email and wallet_address need profile.full. Answers only inside the authorization’s data window (E4010 after it). DPoP-bound tokens come as `Authorization: DPoP` with a proof.',
    security: [['bearer']],
    responses: {
      200: { description: 'User info', schema: ZUserInfo },
      401: {
        description: 'invalid_token, invalid_dpop_proof (RFC 6750 / RFC 9449), or E4010: the data window is over',
        schema: ZOAuthError.or(ZPresetError),
      },
      ...rateLimited,
    },
  },
  {
    method: 'get',
    path: '/v2/presets',
    tag: 'Data',
    summary: 'The 42 presets: scope, type, format and texts',
    responses: { 200: { description: 'The listing', schema: ZPresetList } },
  },
  {
    method: 'get',
    path: '/v2/presets/{preset_name}',
    tag: 'Data',
    summary: 'One preset',
    security: [['bearer']],
    params: ZPresetParams,
    responses: {
      200: { description: 'The value', schema: ZPresetResult },
      ...dataErrors,
      ...presetErrors({ 403: 'E4003: scope missing', 404: 'E4044: no such preset', 409: 'E4004: verification pending, revoked or incomplete' }),
      ...errorResponses({ 400: 'Invalid request' }),
      ...rateLimited,
    },
  },
  {
    method: 'post',
    path: '/v2/presets/batch',
    tag: 'Data',
    summary: 'Up to 50 presets: results and errors side by side',
    security: [['bearer']],
    body: ZPresetBatchRequest,
    responses: {
      200: { description: 'Results and per-item errors', schema: ZPresetBatchResponse },
      ...dataErrors,
      ...errorResponses({ 400: 'Not 1 to 50 names' }),
      ...rateLimited,
    },
  },
  {
    method: 'post',
    path: '/v2/queries/evaluate',
    tag: 'Data',
    summary: 'Evaluate a predicate or projection over the user’s data',
    description:
      'Every claim the query names must be covered by the token’s scopes, short-circuited branches included. A malformed query is a 400 whose details name the JSON path of the offending node.',
    security: [['bearer']],
    body: z.object({ query: ZQuery }),
    responses: {
      200: { description: 'The answer with its evidence', schema: ZQueryResponse },
      ...dataErrors,
      ...presetErrors({ 403: 'E4003: a claim out of scope', 404: 'E4044: an unknown preset' }),
      ...errorResponses({ 400: 'Malformed query' }),
      ...rateLimited,
    },
  },
];
