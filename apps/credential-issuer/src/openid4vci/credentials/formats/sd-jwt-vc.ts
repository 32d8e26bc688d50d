/**
 * SD-JWT VC issuance (IETF SD-JWT VC, RFC 9901 SD-JWT): every claim a disclosure of its own,
 * decoy digests so the number of claims does not show, the holder's key in `cnf`, a Token Status
 * List entry in `status`. What must stay visible to every verifier (`iss`, `iat`, `exp`, `vct`,
 * `cnf`, `status`, `jti`) is never made disclosable.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { type JWK, SignJWT } from 'jose';
import type { JwtSigningKey } from '../../../keys/issuer-keys.js';

export const SD_JWT_VC_TYP = 'dc+sd-jwt';

export interface SdJwtVcInput {
  issuer: string;
  vct: string;
  /** The credential's id, as `GET /credentials` lists it and `POST /credentials/revoke` takes it. */
  jti: string;
  claims: Record<string, unknown>;
  holderKey: JWK;
  status: { idx: number; uri: string };
  issuedAt: Date;
  expiresAt: Date | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** One disclosure: `[salt, name, value]`, 128 bits of salt (§4.2.1), base64url of its JSON. */
function disclose(name: string, value: unknown): { encoded: string; digest: string } {
  const encoded = Buffer.from(JSON.stringify([randomBytes(16).toString('base64url'), name, value])).toString('base64url');
  return { encoded, digest: digest(encoded) };
}

/**
 * Digests with decoys (§4.2.5), sorted: at least one decoy, enough to round the count up to a
 * multiple of four, and 0-3 more at random, so neither the count nor the order says which claims
 * a credential of this type holds.
 */
function withDecoys(digests: string[]): string[] {
  const decoys = 1 + randomInt(4) + ((4 - ((digests.length + 1) % 4)) % 4);
  return [...digests, ...Array.from({ length: decoys }, () => digest(randomBytes(32).toString('base64url')))].sort();
}

/** The SD-JWT VC in its compact form: `<issuer-signed JWT>~<disclosure>~…~` (no key binding: the holder adds that). */
export async function issueSdJwtVc(input: SdJwtVcInput, signer: JwtSigningKey): Promise<string> {
  const disclosures = Object.entries(input.claims).map(([name, value]) => disclose(name, value));
  const jwt = await new SignJWT({
    iss: input.issuer,
    vct: input.vct,
    jti: input.jti,
    iat: Math.floor(input.issuedAt.getTime() / 1000),
    ...(input.expiresAt ? { exp: Math.floor(input.expiresAt.getTime() / 1000) } : {}),
    // The holder's public key as holderKeyOf gave it: its type's public members only.
    cnf: { jwk: input.holderKey },
    status: { status_list: input.status },
    _sd: withDecoys(disclosures.map((d) => d.digest)),
    _sd_alg: 'sha-256',
  })
    .setProtectedHeader({ alg: 'ES256', typ: SD_JWT_VC_TYP, kid: signer.kid, x5c: signer.x5c })
    .sign(signer.privateKey);
  return `${jwt}~${disclosures.map((d) => `${d.encoded}~`).join('')}`;
}
