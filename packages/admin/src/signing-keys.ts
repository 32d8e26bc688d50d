import { createHash, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import type { Prisma } from '@svc/db';
import { inTransaction, type AdminContext } from './context.js';
import { AdminError } from './errors.js';

export const KEY_SERVICES = ['identity-provider', 'credential-issuer'] as const;
export type KeyService = (typeof KEY_SERVICES)[number];

interface NewKey {
  kid: string;
  algorithm: string;
  publicKey: Prisma.InputJsonObject;
  privateKey: Prisma.InputJsonObject;
}

/** RS256 for access and id tokens; kid is the RFC 7638 thumbprint of the public JWK. */
// Off the event loop: RSA key generation takes 100 ms or more.
const generateRsa = promisify(generateKeyPair);

async function generateRsaKey(): Promise<NewKey> {
  const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
  const pub = publicKey.export({ format: 'jwk' }) as { n: string; e: string; kty: string };
  const kid = createHash('sha256').update(JSON.stringify({ e: pub.e, kty: 'RSA', n: pub.n })).digest('base64url');
  return {
    kid,
    algorithm: 'RS256',
    publicKey: { ...pub, kid, alg: 'RS256', use: 'sig' },
    privateKey: privateKey.export({ format: 'jwk' }) as Prisma.InputJsonObject,
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

export interface RotateOptions {
  service: string;
  /** Seconds between publishing the new key and signing with it (identity provider only). */
  activateInSeconds?: number | undefined;
}

/**
 * Adds a new signing key and retires the current one. The identity provider's new key is in
 * the JWKS from now and signs from `activateIn` on (so cached key sets pick it up first); the
 * old key stays published until every token it can have signed has expired. Issuer keys are
 * did:keys: credentials they signed keep verifying after rotation.
 */
export async function rotateSigningKey(ctx: AdminContext, options: RotateOptions) {
  if (!(KEY_SERVICES as readonly string[]).includes(options.service)) {
    throw new AdminError(`--service must be one of ${KEY_SERVICES.join(', ')}`);
  }
  const service = options.service as KeyService;
  const activateIn = options.activateInSeconds ?? 0;
  if (!Number.isInteger(activateIn) || activateIn < 0 || activateIn > 86_400) {
    throw new AdminError('--activate-in must be a whole number of seconds from 0 to 86400');
  }
  const key = service === 'identity-provider' ? await generateRsaKey() : await generateBlsKey();
  const now = ctx.now();
  const activatesAt = new Date(now.getTime() + activateIn * 1000);
  await inTransaction(ctx, async ({ db: tx }) => {
    let publishUntil: Date | null = null;
    if (service === 'identity-provider') {
      const longest = await tx.application.aggregate({ _max: { accessTokenTtlSeconds: true } });
      // id tokens live as long as access tokens; a minute of slack for clock skew.
      const ttl = Math.max(longest._max.accessTokenTtlSeconds ?? 900, 900) + 60;
      publishUntil = new Date(activatesAt.getTime() + ttl * 1000);
    }
    await tx.signingKey.updateMany({
      where: { service, status: 'active' },
      data: { status: 'retiring', retiredAt: activatesAt, publishUntil },
    });
    await tx.signingKey.create({ data: { ...key, service, status: 'active', createdAt: now, activatesAt } });
  });
  return { kid: key.kid };
}
