import type { OperationExample } from '@svc/http';
import { BASE, bearer, CLIENT } from '../example-values.js';

// One person, one vote, as the production guide walks it: the demo developer registers the action,
// the demo user proves it with the demo app's access token ($ACCESS_TOKEN, scope openid) and is
// refused a second time with the same nullifier; the limit is raised, the second vote counts, the
// app's backend checks the nullifier, and the action is deleted last (with its counts, so the page
// runs again from the top).
const developer = bearer('DEVELOPER_SESSION_TOKEN');
const vote = {
  action: 'vote-2026',
  description: 'One vote per person',
  max_per_person: 1,
  period: 'never',
  requires_palm_verification: true,
  created_at: '2026-11-25T10:00:00.000Z',
};
const NULLIFIER = 'nul_q8Vb3mT1yKf0wZr6Lx9Hd2sPj5Ne7Ga4Uc1Oi8Rk3Yh';
const SIGNAL_HASH = '95408549bee13df0da9c425107b824718b805a324a4e1b22d9b5fc4224e6c3d8';
const id = { action: 'vote-2026' };
const SECOND_SIGNAL_HASH = 'c24e6a4636f633942a26972a7d0b87c5e0bae3b60bbc9a4cdecff618f80ce3eb';

export const ACTION_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /v2/developer/actions': [
    {
      summary: 'register a vote: once per person, ever, palm-verified people only (the defaults)',
      headers: developer,
      body: { action: 'vote-2026', description: 'One vote per person' },
      status: 201,
      response: vote,
    },
  ],
  'GET /v2/developer/actions': [{ summary: 'your organization’s actions', headers: developer, status: 200, response: { items: [vote] } }],
  'GET /v2/developer/actions/{action}': [{ summary: 'one action', params: id, headers: developer, status: 200, response: vote }],
  'POST /v2/actions/{action}/proofs': [
    {
      summary: 'the person votes through the app: the signal (their choice) is bound by its SHA-256',
      params: id,
      headers: bearer('ACCESS_TOKEN'),
      body: { signal: 'candidate-b' },
      status: 201,
      response: { action: 'vote-2026', nullifier: NULLIFIER, signal_hash: SIGNAL_HASH, count: 1, max_per_person: 1, proved_at: '2026-11-25T10:00:01.204Z' },
    },
    {
      summary: 'a second vote is refused, with the same nullifier',
      params: id,
      headers: bearer('ACCESS_TOKEN'),
      body: { signal: 'candidate-a' },
      status: 409,
      response: {
        error: 'max_verifications_reached',
        error_description: 'This person has proved this action once, as often as it allows this period',
        nullifier: NULLIFIER,
        request_id: '7b1e9c2d-4f6a-4e8b-9c0d-1a2b3c4d5e6f',
      },
    },
  ],
  'PATCH /v2/developer/actions/{action}': [
    {
      summary: 'allow two votes per person: the counts made so far stay (the name stays too: the nullifiers are made from it)',
      params: id,
      headers: developer,
      body: { max_per_person: 2 },
      status: 200,
      response: { ...vote, max_per_person: 2 },
    },
  ],
  'GET /v2/actions/{action}/proofs/{nullifier}': [
    {
      summary: 'the app’s backend checks the nullifier the app handed it',
      setup: `export NULLIFIER=$(curl -s -X POST ${BASE}/v2/actions/vote-2026/proofs -H "Authorization: Bearer $ACCESS_TOKEN" -H 'content-type: application/json' -d '{"signal":"candidate-a"}' | jq -r .nullifier)   # the second vote, now allowed`,
      params: { ...id, nullifier: '$NULLIFIER' },
      basic: CLIENT,
      status: 200,
      response: { nullifier: NULLIFIER, count: 2, proved_at: '2026-11-25T10:00:09.611Z', signal_hash: SECOND_SIGNAL_HASH },
    },
  ],
  'DELETE /v2/developer/actions/{action}': [{ summary: 'delete the action and every count of it', params: id, headers: developer, status: 204 }],
};
