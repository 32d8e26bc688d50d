import type { OperationSpec } from '@svc/http';
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
