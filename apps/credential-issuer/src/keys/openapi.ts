import type { OperationExample, OperationSpec } from '@svc/http';
import { z } from 'zod';

/** The issuer CA, for verifiers' trust lists. */
export const CERTIFICATE_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/certificates/issuer-ca.pem',
    tag: 'Certificates',
    summary: 'The issuer CA certificate (PEM), for verifiers’ trust lists',
    description:
      'The CA that certifies every key SD-JWT VCs, Status List Tokens and mdocs are signed with. Those carry an x5c chain in their header (leaf first, without this root; COSE x5chain in an mdoc), whose leaf names the credential issuer URL as a SAN URI. A verifier that trusts this certificate (HAIP 1.0; an mdoc reader’s IACA list) verifies them without any web lookup. ISSUER_CA_CERT when the operator brings a CA; otherwise one this service made on its first start and keeps.',
    responses: {
      200: {
        description: 'The CA certificate',
        schema: z.string(),
        contentType: 'application/x-pem-file',
        headers: { 'Cache-Control': 'public, max-age=3600' },
      },
    },
  },
];

/**
 * The guide's example, which is also its mdoc walk-through: a wallet (scripts/wallet.mjs) takes the
 * age credential as the EU age verification mdoc, and OpenSSL checks that the certificate it was
 * signed with was issued by the CA served here.
 */
export const CERTIFICATE_EXAMPLES: Record<string, OperationExample[]> = {
  'GET /certificates/issuer-ca.pem': [
    {
      summary:
        'the issuer CA, as a verifier adds it to its trust list; here after a wallet took the age credential as the EU age verification mdoc, whose signer certificate OpenSSL checks against it',
      setup: `export MDOC=$(node apps/credential-issuer/scripts/wallet.mjs receive "$(curl -s -X POST http://localhost:4002/credential-offers -H "X-API-Token: $API_TOKEN" \\
  -H 'content-type: application/json' -d '{"credential_configuration_id": "age_over_mdoc", "claims": {"age_over_18": true}, "tx_code": false}' | jq -r .offer_link)")
echo "$MDOC" | jq -c '{doctype, claims, valid_until}'   # {"doctype":"eu.europa.ec.av.1","claims":{"eu.europa.ec.av.1":{"age_over_18":true}},"valid_until":"…"}
curl -s http://localhost:4002/certificates/issuer-ca.pem > issuer-ca.pem
export MDOC_SIGNER=$(echo "$MDOC" | jq -r .signer_certificate | openssl verify -CAfile issuer-ca.pem)   # stdin: OK`,
      status: 200,
      response: '-----BEGIN CERTIFICATE-----\nMIIBnDCCAUKgAwIBAgIQR3n0e5c1x2VvYl0dWm2kYDAKBggqhkjOPQQDAjA0MRkw…\n-----END CERTIFICATE-----\n',
    },
  ],
};
