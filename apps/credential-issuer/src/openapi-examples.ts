import type { OperationExample } from '@svc/http';

// Every value works against `npm start`'s demo data; docs/credential-issuer.md says where each
// $VARIABLE comes from. A test runs each of these, as the guide prints them, against the service.
const token = { 'X-API-Token': '$API_TOKEN' };
const ALICE_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';
// The answers' issuer: a did:key names its own BLS12-381 public key.
const ISSUER_KEY = 'zUC7HZvi3pyFMHJxAK7PjYALHKpPpabM79PJ2RNbB33f5kKNDdC2sLN1DWtjUAEMScC82rTStb6EUGh2dh6oXELqxX9mtmDz6UAYxBFhoB3xZynCnidWUwfufNEBNZkKWNfKf4h';
const ISSUER_DID = `did:key:${ISSUER_KEY}`;

export const CREDENTIAL_ISSUER_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /credentials/issue': [
    {
      summary: 'the spec’s shape: claims about a wallet address',
      headers: token,
      body: { subject_address: ALICE_WALLET, claims: { kyc_passed: true, age_over_18: true } },
      status: 200,
      response: {
        message: 'Credential issued',
        credential: {
          '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
          id: 'urn:uuid:d5bea51d-e534-426c-bcf8-3087610cb3da',
          type: ['VerifiableCredential'],
          issuer: ISSUER_DID,
          validFrom: '2026-11-25T02:32:40Z',
          credentialSubject: { id: 'did:ethr:0x52908400098527886E0F7030069857D2E4169EE7', kyc_passed: true, age_over_18: true },
          credentialStatus: {
            type: 'SvcRevocationRegistry',
            chain_id: '1',
            revocation_registry_contract_address: '0x0000000000000000000000000000000000000000',
            did_registry_contract_address: '0x0000000000000000000000000000000000000000',
          },
          proof: {
            type: 'DataIntegrityProof',
            created: '2026-11-25T02:32:40Z',
            verificationMethod: `${ISSUER_DID}#${ISSUER_KEY}`,
            cryptosuite: 'bbs-2023',
            proofPurpose: 'assertionMethod',
            proofValue: 'u2V0ChVhQsFF7gzxWjVzwfPpFIbCCNdlTwo-mqNf…',
          },
        },
      },
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
      response: {
        verifiableCredential: {
          '@context': ['https://www.w3.org/ns/credentials/v2', { level: 'https://example.org/vocab#level' }],
          type: ['VerifiableCredential'],
          issuer: ISSUER_DID,
          credentialSubject: { id: 'did:ethr:0x52908400098527886E0F7030069857D2E4169EE7', name: 'Alice', level: 'gold' },
          name: 'Membership',
          id: 'urn:uuid:67e17595-afd9-4100-83c9-7e9e77acf2a9',
          validFrom: '2026-11-25T02:32:41Z',
          credentialStatus: {
            id: 'http://localhost:4002/status-lists/0f898d53-b0d2-4e29-a8f1-71594c221c85#71157',
            type: 'BitstringStatusListEntry',
            statusPurpose: 'revocation',
            statusListIndex: '71157',
            statusListCredential: 'http://localhost:4002/status-lists/0f898d53-b0d2-4e29-a8f1-71594c221c85',
          },
          proof: {
            type: 'DataIntegrityProof',
            created: '2026-11-25T02:32:41Z',
            verificationMethod: `${ISSUER_DID}#${ISSUER_KEY}`,
            cryptosuite: 'bbs-2023',
            proofPurpose: 'assertionMethod',
            proofValue: 'u2V0ChVhQpP2AcO-zGx8SZQtUH9DEHc_8Hv806EF…',
          },
        },
      },
    },
  ],
  'POST /credentials/verify': [
    {
      summary: 'verify a credential (W3C VC API request)',
      headers: token,
      body: { verifiableCredential: '$json:CREDENTIAL' },
      status: 200,
      response: { verified: true, checks: ['proof', 'validity', 'status'], warnings: [], errors: [] },
    },
  ],
  'POST /presentations/verify': [
    {
      summary: 'passes: a presentation the holder signed for the verifier’s challenge, of a credential this issuer signed (derived)',
      setup: [
        '# The holder’s part (a wallet’s): derive a credential to show, and sign a presentation of it for the',
        '# verifier’s challenge, here with a throwaway key (apps/credential-issuer/scripts/sign-presentation.mjs)',
        'export CHALLENGE=$(openssl rand -hex 16)   # the verifier’s: a fresh random value for each presentation',
        `export PRESENTATION=$(curl -s -X POST http://localhost:4002/credentials/derive -H "X-API-Token: $API_TOKEN" -H 'content-type: application/json' \\`,
        '  -d "{\\"verifiableCredential\\": $CREDENTIAL, \\"options\\": {\\"selectivePointers\\": [\\"/credentialSubject/level\\"]}}" \\',
        '  | jq .verifiableCredential | node apps/credential-issuer/scripts/sign-presentation.mjs --challenge "$CHALLENGE")',
      ].join('\n'),
      headers: token,
      body: { verifiablePresentation: '$json:PRESENTATION', options: { challenge: '$CHALLENGE' } },
      status: 200,
      response: {
        verified: true,
        checks: ['proof', 'credentials'],
        warnings: [],
        errors: [],
        credentialResults: [{ id: 'urn:uuid:311fb004-35af-4f3e-a265-6ca2c087c028', verified: true, errors: [] }],
      },
    },
    {
      summary: 'fails (verified: false, the reasons in errors): the same presentation replayed to a verifier with another challenge',
      headers: token,
      body: { verifiablePresentation: '$json:PRESENTATION', options: { challenge: 'another-verifiers-challenge' } },
      status: 200,
      response: {
        verified: false,
        checks: ['proof', 'credentials'],
        warnings: [],
        errors: [
          {
            type: 'https://www.w3.org/TR/vc-data-model#CRYPTOGRAPHIC_SECURITY_ERROR',
            title: 'CRYPTOGRAPHIC_SECURITY_ERROR',
            detail: 'The challenge is not as expected; challenge="974d6b20c2dc7ed23eeacc14184e501c", expected="another-verifiers-challenge"',
          },
        ],
        credentialResults: [{ id: 'urn:uuid:311fb004-35af-4f3e-a265-6ca2c087c028', verified: true, errors: [] }],
      },
    },
  ],
  'POST /credentials/derive': [
    {
      summary: 'disclose only some claims (selective disclosure, bbs-2023)',
      headers: token,
      body: { verifiableCredential: '$json:CREDENTIAL', options: { selectivePointers: ['/credentialSubject/level'] } },
      status: 201,
      response: {
        verifiableCredential: {
          '@context': ['https://www.w3.org/ns/credentials/v2', { level: 'https://example.org/vocab#level' }],
          id: 'urn:uuid:311fb004-35af-4f3e-a265-6ca2c087c028',
          type: ['VerifiableCredential'],
          issuer: ISSUER_DID,
          validFrom: '2026-11-25T02:32:40Z',
          credentialStatus: {
            id: 'http://localhost:4002/status-lists/0f898d53-b0d2-4e29-a8f1-71594c221c85#83957',
            type: 'BitstringStatusListEntry',
            statusPurpose: 'revocation',
            statusListIndex: '83957',
            statusListCredential: 'http://localhost:4002/status-lists/0f898d53-b0d2-4e29-a8f1-71594c221c85',
          },
          credentialSubject: { id: 'did:ethr:0x52908400098527886E0F7030069857D2E4169EE7', level: 'gold' },
          proof: {
            type: 'DataIntegrityProof',
            created: '2026-11-25T02:32:40Z',
            verificationMethod: `${ISSUER_DID}#${ISSUER_KEY}`,
            cryptosuite: 'bbs-2023',
            proofPurpose: 'assertionMethod',
            proofValue: 'u2V0DhVkBMKYAhMqw8HUmoXr2X8PzoFJ5uLvX1vX…',
          },
        },
      },
    },
  ],
  'POST /credentials/revoke': [
    {
      summary: 'revoke a credential this key issued',
      headers: token,
      body: { credential_id: '$CREDENTIAL_ID' },
      status: 200,
      response: { revoked: true, credential_id: 'urn:uuid:311fb004-35af-4f3e-a265-6ca2c087c028', revoked_at: '2026-11-25T02:32:44.816Z' },
    },
  ],
  'GET /credentials': [
    {
      summary: 'credentials issued for a wallet, newest first',
      headers: token,
      query: { subject_address: ALICE_WALLET, limit: '10' },
      status: 200,
      response: {
        items: [
          {
            id: 'urn:uuid:67e17595-afd9-4100-83c9-7e9e77acf2a9',
            subject_address: '0x52908400098527886E0F7030069857D2E4169EE7',
            issuer: ISSUER_DID,
            claim_names: ['name', 'level'],
            status: 'active',
            format: 'ldp_vc',
            copies: 1,
            wallet_event: null,
            issued_at: '2026-11-25T02:32:41.240Z',
            valid_from: '2026-11-25T02:32:41.000Z',
            valid_until: null,
            revoked_at: null,
          },
        ],
        next_cursor: null,
      },
    },
  ],
  'GET /credentials/{id}/status': [
    {
      summary: 'is it revoked?',
      headers: token,
      params: { id: '$CREDENTIAL_ID' },
      status: 200,
      response: { credential_id: 'urn:uuid:311fb004-35af-4f3e-a265-6ca2c087c028', revoked: true, revoked_at: '2026-11-25T02:32:44.816Z' },
    },
  ],
  'GET /status-lists/{id}': [
    {
      summary: 'a public Bitstring Status List (no token)',
      params: { id: '$STATUS_LIST_ID' },
      status: 200,
      response: {
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        id: 'http://localhost:4002/status-lists/0f898d53-b0d2-4e29-a8f1-71594c221c85',
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: ISSUER_DID,
        validFrom: '2026-11-25T02:32:45Z',
        credentialSubject: {
          id: 'http://localhost:4002/status-lists/0f898d53-b0d2-4e29-a8f1-71594c221c85#list',
          type: 'BitstringStatusList',
          statusPurpose: 'revocation',
          encodedList: 'uH4sIAAAAAAAAA-3OQQkAAAgEsHvYP7MpDhG2BEsAAAAAAAAAAAAAPpnrAAAAAAAAVCyXyKYVAEAAAA',
          ttl: 300000,
        },
        proof: {
          type: 'DataIntegrityProof',
          created: '2026-11-25T02:32:45Z',
          verificationMethod: `${ISSUER_DID}#${ISSUER_KEY}`,
          cryptosuite: 'bbs-2023',
          proofPurpose: 'assertionMethod',
          proofValue: 'u2V0DhVkBEKzjpngwUjz5U3cL5yARvpO30YiZiiT…',
        },
      },
    },
  ],
};
