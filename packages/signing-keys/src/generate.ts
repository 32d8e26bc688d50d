import { createHash, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import * as Bls from '@digitalbazaar/bls12-381-multikey';

export const KEY_SERVICES = ['identity-provider', 'credential-issuer'] as const;
export type KeyService = (typeof KEY_SERVICES)[number];

/**
 * The algorithms each service signs with, a key of its own for each (one RSA key is never used
 * with two padding schemes): the identity provider's RS256 (the default OpenID Connect names) and
 * PS256 (FAPI 2.0's), both published as RSA keys; the issuer's BBS key (bbs-2023 credentials) and
 * its ES256 key (SD-JWT VCs for wallets, published as JWT VC issuer metadata).
 */
export const KEY_ALGORITHMS = { 'identity-provider': ['RS256', 'PS256'], 'credential-issuer': ['Bls12381G2', 'ES256'] } as const satisfies Record<
  KeyService,
  readonly string[]
>;
export type KeyAlgorithm<S extends KeyService = KeyService> = (typeof KEY_ALGORITHMS)[S][number];

export interface NewKey {
  kid: string;
  algorithm: string;
  publicKey: Record<string, string>;
  privateKey: Record<string, string>;
}

// Off the event loop: RSA key generation takes 100 ms or more.
const generatePair = promisify(generateKeyPair);

/** An RSA key for RS256 or PS256 tokens; kid is the RFC 7638 thumbprint of the public JWK. */
async function generateRsaKey(algorithm: 'RS256' | 'PS256'): Promise<NewKey> {
  const { publicKey, privateKey } = await generatePair('rsa', { modulusLength: 2048 });
  const pub = publicKey.export({ format: 'jwk' }) as { n: string; e: string; kty: string };
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: pub.e, kty: 'RSA', n: pub.n }))
    .digest('base64url');
  return {
    kid,
    algorithm,
    publicKey: { ...pub, kid, alg: algorithm, use: 'sig' },
    privateKey: privateKey.export({ format: 'jwk' }) as Record<string, string>,
  };
}

/** A P-256 key for ES256 (SD-JWT VCs); kid is the RFC 7638 thumbprint of the public JWK. */
async function generateEcKey(): Promise<NewKey> {
  const { publicKey, privateKey } = await generatePair('ec', { namedCurve: 'P-256' });
  const pub = publicKey.export({ format: 'jwk' }) as { crv: string; x: string; y: string };
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: pub.crv, kty: 'EC', x: pub.x, y: pub.y }))
    .digest('base64url');
  return {
    kid,
    algorithm: 'ES256',
    publicKey: { kty: 'EC', crv: pub.crv, x: pub.x, y: pub.y, kid, alg: 'ES256', use: 'sig' },
    privateKey: privateKey.export({ format: 'jwk' }) as Record<string, string>,
  };
}

/** A BLS12-381 G2 key for bbs-2023; the issuer is its did:key and kid the verification method. */
async function generateBlsKey(): Promise<NewKey> {
  const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
  const exported = await pair.export({ publicKey: true, secretKey: true, includeContext: true });
  const did = `did:key:${exported.publicKeyMultibase}`;
  const kid = `${did}#${exported.publicKeyMultibase}`;
  return {
    kid,
    algorithm: 'Bls12381G2',
    publicKey: { type: 'Multikey', id: kid, controller: did, publicKeyMultibase: exported.publicKeyMultibase },
    privateKey: { secretKeyMultibase: exported.secretKeyMultibase ?? '' },
  };
}

/** A new key of `service` for `algorithm` (its first, by default). */
export function generateKey(service: KeyService, algorithm: KeyAlgorithm = KEY_ALGORITHMS[service][0]): Promise<NewKey> {
  if (service === 'identity-provider') return generateRsaKey(algorithm as 'RS256' | 'PS256');
  return algorithm === 'ES256' ? generateEcKey() : generateBlsKey();
}
