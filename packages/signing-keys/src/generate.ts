import { createHash, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import * as Bls from '@digitalbazaar/bls12-381-multikey';

export const KEY_SERVICES = ['identity-provider', 'credential-issuer'] as const;
export type KeyService = (typeof KEY_SERVICES)[number];

export interface NewKey {
  kid: string;
  algorithm: string;
  publicKey: Record<string, string>;
  privateKey: Record<string, string>;
}

// Off the event loop: RSA key generation takes 100 ms or more.
const generateRsa = promisify(generateKeyPair);

/** RS256 for access and id tokens; kid is the RFC 7638 thumbprint of the public JWK. */
async function generateRsaKey(): Promise<NewKey> {
  const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
  const pub = publicKey.export({ format: 'jwk' }) as { n: string; e: string; kty: string };
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: pub.e, kty: 'RSA', n: pub.n }))
    .digest('base64url');
  return {
    kid,
    algorithm: 'RS256',
    publicKey: { ...pub, kid, alg: 'RS256', use: 'sig' },
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

export const generateKey = (service: KeyService): Promise<NewKey> => (service === 'identity-provider' ? generateRsaKey() : generateBlsKey());
