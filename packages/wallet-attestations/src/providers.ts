/**
 * The wallet providers this deployment trusts (WALLET_PROVIDERS): who may vouch for a wallet
 * instance (a client attestation) and for the keys it holds (a key attestation). Each is named as
 * its attestations' `iss`, and known by its public keys (picked by `kid`, or the only one) or by a
 * root certificate its attestations' `x5c` chain must end in.
 */
import { X509Certificate } from 'node:crypto';
import { importJWK, type JWK, type ProtectedHeaderParameters } from 'jose';
import { z } from 'zod';

const ZPublicJwk = z.looseObject({ kty: z.enum(['EC', 'OKP', 'RSA']), kid: z.string().max(200).optional() }).refine((k) => !('d' in k), {
  message: 'must be a public key (it holds a private one)',
});

const ZProvider = z.union([
  z.strictObject({ name: z.string().min(1).max(200), keys: z.array(ZPublicJwk).min(1).max(20) }),
  z.strictObject({
    name: z.string().min(1).max(200),
    certificate: z.string().refine(
      (pem) => {
        try {
          return new X509Certificate(pem).ca;
        } catch {
          return false;
        }
      },
      { message: 'must be a PEM CA certificate' },
    ),
  }),
]);

/** WALLET_PROVIDERS as configuration holds it: a JSON array of providers. */
export const ZWalletProviders = z.preprocess(
  (v) => {
    if (typeof v !== 'string' || v.trim() === '') return [];
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z.array(ZProvider, { message: 'must be a JSON array of {"name", "keys": [<public JWK>…]} or {"name", "certificate": "<PEM>"}' }).max(50),
);

export type WalletProviderSettings = z.output<typeof ZWalletProviders>;

/** Signing algorithms an attestation may use: asymmetric only, never `none` or an HMAC. */
export const ATTESTATION_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'PS256', 'RS256'] as const;

export class AttestationError extends Error {
  override name = 'AttestationError';
}

export class WalletProviders {
  private readonly byName: Map<string, WalletProviderSettings[number]>;

  constructor(readonly settings: WalletProviderSettings) {
    this.byName = new Map(settings.map((p) => [p.name, p]));
  }

  get size(): number {
    return this.byName.size;
  }

  /**
   * The key that must have signed an attestation `issuer` made, from its header: a configured key
   * (by `kid`, or the provider's only key), or the leaf of an `x5c` chain that ends in the
   * provider's root and is valid at `now`.
   */
  async signingKey(issuer: unknown, header: ProtectedHeaderParameters, now: Date): Promise<{ key: CryptoKeyLike; provider: string }> {
    if (!ATTESTATION_ALGORITHMS.includes(header.alg as (typeof ATTESTATION_ALGORITHMS)[number]))
      throw new AttestationError(`its alg must be one of ${ATTESTATION_ALGORITHMS.join(', ')}`);
    // Without an iss (a key attestation may leave it out) the chain names the provider: the first whose root it ends in.
    if (issuer === undefined) {
      for (const provider of this.settings)
        if ('certificate' in provider)
          try {
            return { key: leafOfChain(header.x5c, new X509Certificate(provider.certificate), now), provider: provider.name };
          } catch {}
      throw new AttestationError('it names no iss, and its x5c chain ends in no trusted wallet provider’s certificate');
    }
    const provider = typeof issuer === 'string' ? this.byName.get(issuer) : undefined;
    if (!provider) throw new AttestationError('its iss is not a trusted wallet provider');
    if ('keys' in provider) {
      const key = header.kid === undefined && provider.keys.length === 1 ? provider.keys[0] : provider.keys.find((k) => k.kid === header.kid);
      if (!key) throw new AttestationError('its kid names none of the wallet provider’s keys');
      return { key: await importJWK(key as JWK, header.alg), provider: provider.name };
    }
    return { key: leafOfChain(header.x5c, new X509Certificate(provider.certificate), now), provider: provider.name };
  }
}

type CryptoKeyLike = Awaited<ReturnType<typeof importJWK>>;

/** The leaf's key once each certificate is signed by the next, the last by `root`, all valid at `now`. */
function leafOfChain(x5c: unknown, root: X509Certificate, now: Date): CryptoKeyLike {
  if (!Array.isArray(x5c) || x5c.length === 0 || x5c.length > 5 || !x5c.every((c) => typeof c === 'string'))
    throw new AttestationError('its header must carry the x5c chain of the wallet provider’s certificate');
  let chain: X509Certificate[];
  try {
    chain = x5c.map((c) => new X509Certificate(Buffer.from(c, 'base64')));
  } catch {
    throw new AttestationError('its x5c holds something that is not a certificate');
  }
  // Anchored first, so an attacker's chain costs one check: its top is the root or issued by it.
  const issuedBy = (child: X509Certificate, parent: X509Certificate) => parent.ca && child.checkIssued(parent) && child.verify(parent.publicKey);
  const top = chain.at(-1)!;
  const anchored = top.fingerprint256 === root.fingerprint256 || issuedBy(top, root);
  if (!anchored) throw new AttestationError('its x5c chain does not end in the wallet provider’s certificate');
  // Every certificate above the leaf must be a CA, and the leaf must not be one: an end-entity
  // certificate under the root cannot vouch for a key of its holder's choosing.
  for (let i = 0; i + 1 < chain.length; i++)
    if (!issuedBy(chain[i]!, chain[i + 1]!)) throw new AttestationError('its x5c chain is broken, or names a non-CA as an issuer');
  if (chain[0]!.ca && chain[0]!.fingerprint256 !== root.fingerprint256) throw new AttestationError('its signing certificate must not be a CA certificate');
  const at = now.getTime();
  if (chain.some((c) => Date.parse(c.validFrom) > at || Date.parse(c.validTo) < at))
    throw new AttestationError('a certificate of its x5c chain is not valid now');
  return chain[0]!.publicKey as unknown as CryptoKeyLike;
}
