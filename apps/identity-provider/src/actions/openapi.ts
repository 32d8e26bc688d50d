import { type ApiSpec, errorResponses } from '@svc/http';
import {
  ZAction,
  ZActionList,
  ZActionParams,
  ZCreateActionRequest,
  ZProof,
  ZProofCheck,
  ZProofParams,
  ZProofRefused,
  ZProofRequest,
  ZUpdateActionRequest,
} from '@svc/schemas';
import { developer, developerRefused as refused, developerWriteRefused as writeRefused, rateLimited } from '../openapi-responses.js';

const NOT_FOUND = 'No such action in your organization';

/** One human, one action: actions an organization counts per person, proved by people and checked by its backend. */
export const ACTION_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/v2/developer/actions',
    tag: 'Actions',
    summary: 'The organization’s actions, oldest first',
    security: developer,
    responses: { 200: { description: 'Every action', schema: ZActionList }, ...refused({ 404: 'Not a member of any organization' }) },
  },
  {
    method: 'post',
    path: '/v2/developer/actions',
    tag: 'Actions',
    summary: 'Register an action counted per person: how often one person may prove it (max_per_person), per period, and whether only palm-verified people may',
    security: developer,
    body: ZCreateActionRequest,
    responses: {
      201: { description: 'The action', schema: ZAction },
      ...writeRefused({ 404: 'Not a member of any organization', 409: 'action_exists: the organization has an action of this name' }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/actions/{action}',
    tag: 'Actions',
    summary: 'One action',
    security: developer,
    params: ZActionParams,
    responses: { 200: { description: 'The action', schema: ZAction }, ...refused({ 400: 'Invalid request', 404: NOT_FOUND }) },
  },
  {
    method: 'patch',
    path: '/v2/developer/actions/{action}',
    tag: 'Actions',
    summary: 'Change an action’s description, limit, period or palm requirement (its name stays: the nullifiers are made from it)',
    description: 'Counts already made stay: lowering max_per_person refuses whoever is at or over the new limit.',
    security: developer,
    params: ZActionParams,
    body: ZUpdateActionRequest,
    responses: { 200: { description: 'The action as it is now', schema: ZAction }, ...writeRefused({ 404: NOT_FOUND }) },
  },
  {
    method: 'delete',
    path: '/v2/developer/actions/{action}',
    tag: 'Actions',
    summary: 'Delete an action and every count of it (registered again, it starts afresh)',
    security: developer,
    params: ZActionParams,
    responses: { 204: { description: 'Deleted' }, ...writeRefused({ 404: NOT_FOUND }) },
  },
  {
    method: 'post',
    path: '/v2/actions/{action}/proofs',
    tag: 'Actions',
    summary: 'Prove an action as the token’s person: counted under a nullifier of this person, action and period',
    description:
      'With an access token (scope openid) of one of the organization’s applications. The nullifier is the same for this person, action and period (UTC day, ISO week, month, or ever) and unlinkable to any other action, organization or `sub`. An optional `signal` (a vote’s choice, a wallet address) is bound by its SHA-256, lowercase hex, as signal_hash; the signal itself is not kept. Exact under concurrency: parallel proofs over the limit are refused, on any number of replicas.',
    security: [['bearer']],
    params: ZActionParams,
    body: ZProofRequest,
    responses: {
      201: { description: 'Counted: the nullifier, the count so far and the limit', schema: ZProof },
      ...errorResponses({
        400: 'Invalid request: `details` names each field and why',
        401: 'invalid_token (RFC 6750): no, an expired or a revoked access token',
        403: 'not_unique_human: the action needs palm verification, which the person has not completed; or insufficient_scope (openid)',
        404: 'action_not_found: the organization of the token’s application has no such action',
      }),
      409: {
        description: 'max_verifications_reached: the person proved the action as often as it allows this period; the same nullifier',
        schema: ZProofRefused,
      },
      ...rateLimited,
    },
  },
  {
    method: 'get',
    path: '/v2/actions/{action}/proofs/{nullifier}',
    tag: 'Actions',
    summary: 'Check a nullifier a person’s app handed over: how often it proved the action, when last, and the signal’s hash',
    description: 'By the integrator’s backend, with the client credentials of one of the organization’s confidential applications (HTTP Basic).',
    security: [['clientBasic']],
    params: ZProofParams,
    responses: {
      200: { description: 'The proofs of this nullifier', schema: ZProofCheck },
      ...errorResponses({
        400: 'Invalid request: `details` names each field and why',
        401: 'invalid_client: no, unknown or wrong client credentials, or a public client',
        404: 'action_not_found, or proof_not_found: no proof of this action under this nullifier',
      }),
      ...rateLimited,
    },
  },
];
