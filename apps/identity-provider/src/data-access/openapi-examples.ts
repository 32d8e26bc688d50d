import type { OperationExample } from '@svc/http';
import { bearer } from '../example-values.js';

// The production guide's examples of presets and queries, in page order; spread into
// IDENTITY_PROVIDER_EXAMPLES where they stand in the guide. They read with the guide's
// $ACCESS_TOKEN, from the demo user's grant.
export const DATA_ACCESS_EXAMPLES: Record<string, OperationExample[]> = {
  'GET /v2/presets': [
    {
      summary: 'the 42 presets: name, scope, type',
      status: 200,
      response: {
        presets: [
          {
            name: 'service_uuid',
            scope: 'openid',
            category: 'identity',
            description: "The user's humanity id (service id): one per unique human.",
            consentText: 'Your unique humanity id',
            type: 'string',
            sensitivity: 'low',
            derived: false,
            format: 'UUID',
          },
          {
            name: 'service_score',
            scope: 'data.read',
            category: 'profile',
            description: 'Confidence score of the humanity verification.',
            consentText: 'Your verification score',
            type: 'integer',
            sensitivity: 'low',
            derived: false,
            format: 'integer from 0 to 100',
          },
        ],
      },
    },
  ],
  'GET /v2/presets/{preset_name}': [
    {
      summary: 'one preset',
      params: { preset_name: 'age_over_18' },
      headers: bearer('ACCESS_TOKEN'),
      status: 200,
      response: {
        preset: 'age_over_18',
        value: true,
        status: 'valid',
        expires_at: '2026-11-25T03:32:23.410Z',
        verified_at: '2026-11-25T02:32:00.943Z',
        evidence: { source: 'kyc_provider', credential_id: '7bb283d8-c280-461c-944f-b081bc20309f', derived_from: 'date_of_birth' },
      },
    },
  ],
  'POST /v2/presets/batch': [
    {
      summary: 'several presets at once',
      headers: bearer('ACCESS_TOKEN'),
      body: { presets: ['age_over_18', 'nationality', 'kyc_passed'] },
      status: 200,
      response: {
        results: [
          {
            preset: 'age_over_18',
            value: true,
            status: 'valid',
            expires_at: '2026-11-25T03:32:23.410Z',
            verified_at: '2026-11-25T02:32:00.943Z',
            evidence: { source: 'kyc_provider', credential_id: '7bb283d8-c280-461c-944f-b081bc20309f', derived_from: 'date_of_birth' },
          },
          {
            preset: 'nationality',
            value: 'DE',
            status: 'valid',
            expires_at: '2026-11-25T03:32:23.410Z',
            verified_at: '2026-11-25T02:32:00.943Z',
            evidence: { source: 'kyc_provider', credential_id: '7bb283d8-c280-461c-944f-b081bc20309f' },
          },
          {
            preset: 'kyc_passed',
            value: true,
            status: 'valid',
            expires_at: '2026-11-25T03:32:23.410Z',
            verified_at: '2026-11-25T02:32:00.943Z',
            evidence: { source: 'kyc_provider', credential_id: '7bb283d8-c280-461c-944f-b081bc20309f' },
          },
        ],
        errors: [],
      },
    },
  ],
  'POST /v2/queries/evaluate': [
    {
      summary: 'a yes/no policy over the user’s claims: the answer, not the data',
      headers: bearer('ACCESS_TOKEN'),
      body: {
        query: {
          policy: {
            allOf: [
              { claim: 'age', operator: '>=', value: 18 },
              { claim: 'kyc_passed', operator: '==', value: true },
            ],
          },
        },
      },
      status: 200,
      response: {
        type: 'predicate',
        passed: true,
        evaluatedAt: '2026-11-25T02:32:29.069Z',
        evidence: {
          claimsUsed: [
            { path: 'age', value: 36, credentialId: '7bb283d8-c280-461c-944f-b081bc20309f', source: 'kyc_provider' },
            { path: 'kyc_passed', value: true, credentialId: '7bb283d8-c280-461c-944f-b081bc20309f', source: 'kyc_provider' },
          ],
          checkResults: [
            { claim: 'age', operator: '>=', expectedValue: 18, actualValue: 36, passed: true },
            { claim: 'kyc_passed', operator: '==', expectedValue: true, actualValue: true, passed: true },
          ],
        },
        expiresAt: '2027-11-25T02:32:00.940Z',
      },
    },
  ],
};
