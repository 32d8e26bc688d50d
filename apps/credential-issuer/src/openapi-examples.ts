import type { OperationExample } from '@svc/http';

// Every value works against `npm start`'s demo data; docs/credential-issuer.md says where each
// $VARIABLE comes from. A test runs each of these, as the guide prints them, against the service.
const token = { 'X-API-Token': '$API_TOKEN' };
const ALICE_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

export const CREDENTIAL_ISSUER_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /credentials/issue': [
    {
      summary: 'the spec’s shape: claims about a wallet address',
      headers: token,
      body: { subject_address: ALICE_WALLET, claims: { kyc_passed: true, age_over_18: true } },
      status: 200,
    },
    {
      summary: 'the W3C VC API shape: your credential, issued by this issuer’s DID, with a Bitstring Status List entry',
      headers: token,
      body: {
        credential: {
          '@context': ['https://www.w3.org/ns/credentials/v2', { level: 'https://example.org/vocab#level' }],
          type: ['VerifiableCredential'],
          issuer: '$ISSUER_DID',
          name: 'Membership',
          credentialSubject: { id: `did:ethr:${ALICE_WALLET}`, name: 'Alice', level: 'gold' },
        },
        options: { mandatoryPointers: ['/credentialSubject/name'], credentialStatus: { type: 'BitstringStatusListEntry' } },
      },
      status: 201,
    },
  ],
  'POST /credentials/verify': [
    { summary: 'verify a credential (W3C VC API request)', headers: token, body: { verifiableCredential: '$json:CREDENTIAL' }, status: 200 },
  ],
  'POST /presentations/verify': [
    {
      summary: 'verify a presentation: its proof, then every credential in it (an unsigned one is reported, not refused)',
      headers: token,
      body: {
        verifiablePresentation: {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: ['VerifiablePresentation'],
          verifiableCredential: ['$json:CREDENTIAL'],
        },
      },
      status: 200,
    },
  ],
  'POST /credentials/derive': [
    {
      summary: 'disclose only some claims (selective disclosure, bbs-2023)',
      headers: token,
      body: { verifiableCredential: '$json:CREDENTIAL', options: { selectivePointers: ['/credentialSubject/level'] } },
      status: 201,
    },
  ],
  'POST /credentials/revoke': [{ summary: 'revoke a credential this key issued', headers: token, body: { credential_id: '$CREDENTIAL_ID' }, status: 200 }],
  'GET /credentials': [
    { summary: 'credentials issued for a wallet, newest first', headers: token, query: { subject_address: ALICE_WALLET, limit: '10' }, status: 200 },
  ],
  'GET /credentials/{id}/status': [{ summary: 'is it revoked?', headers: token, params: { id: '$CREDENTIAL_ID' }, status: 200 }],
  'GET /status-lists/{id}': [{ summary: 'a public Bitstring Status List (no token)', params: { id: '$STATUS_LIST_ID' }, status: 200 }],
};
