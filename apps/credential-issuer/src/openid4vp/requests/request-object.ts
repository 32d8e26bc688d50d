import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, type JWK, SignJWT } from 'jose';
import type { VerifierSigner } from '../../keys/verifier-key.js';
import type { AskedFor } from './presentation-requests.js';

/** OpenID4VP 1.0 §5: the audience of a request object a wallet fetches or is handed. */
const SELF_ISSUED = 'https://self-issued.me/v2';

export interface RequestObjectInput {
  asked: AskedFor;
  nonce: string;
  state: string;
  responseKey: JWK;
  /** Where the wallet posts (direct_post.jwt); absent over the DC API. */
  responseUri?: string;
  expiresAt: Date;
  now: Date;
}

/**
 * The signed request object (JAR, RFC 9101; OpenID4VP 1.0 §5 with the `x509_hash` client id
 * prefix): the DCQL query, the nonce, where and how to answer, and the key to encrypt the answer
 * to (`client_metadata.jwks`, one ephemeral ECDH-ES key per request).
 */
export async function signRequestObject(signer: VerifierSigner, input: RequestObjectInput, mode: 'direct_post.jwt' | 'dc_api.jwt'): Promise<string> {
  const iat = Math.floor(input.now.getTime() / 1000);
  return new SignJWT({
    client_id: signer.clientId,
    response_type: 'vp_token',
    response_mode: mode,
    ...(mode === 'direct_post.jwt' ? { response_uri: input.responseUri, state: input.state } : { expected_origins: input.asked.expected_origins }),
    nonce: input.nonce,
    dcql_query: input.asked.dcql_query,
    client_metadata: {
      jwks: { keys: [input.responseKey] },
      encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
      vp_formats_supported: {
        'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256', 'ES384'], 'kb-jwt_alg_values': ['ES256', 'ES384'] },
        mso_mdoc: { issuerauth_alg_values: [-7, -35], deviceauth_alg_values: [-7, -35] },
      },
    },
    ...(input.asked.purpose ? { purpose: input.asked.purpose } : {}),
    aud: SELF_ISSUED,
    iat,
    exp: Math.floor(input.expiresAt.getTime() / 1000),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: signer.x5c })
    .sign(signer.privateKey);
}

/** The SHA-256 JWK thumbprint (RFC 7638) of the response key, as mdoc session transcripts bind it. */
export async function responseKeyThumbprint(publicJwk: JWK): Promise<Uint8Array> {
  return new Uint8Array(Buffer.from(await calculateJwkThumbprint(publicJwk, 'sha256'), 'base64url'));
}

export const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
