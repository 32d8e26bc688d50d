// Client attestations made by @openid4vc/oauth2 (a wallet library this project did not write) and
// key attestations as OpenID4VCI 1.0 Appendix D writes them, checked against configured providers:
// by key, and by a certificate chain.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { clientAuthenticationClientAttestationJwt, createClientAttestationJwt } from '@openid4vc/oauth2';
import * as x509 from '@peculiar/x509';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import {
  AttestationError,
  attests,
  presentedAttestation,
  verifyClientAttestation,
  verifyKeyAttestation,
  WalletProviders,
  ZWalletProviders,
} from '../src/index.js';

x509.cryptoProvider.set(webcrypto as never);
const AS = 'https://issuer.example';

async function keyPair() {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid: randomBytes(4).toString('hex') } };
}
type Pair = Awaited<ReturnType<typeof keyPair>>;

const callbacks = (keys: Map<string, Pair>) => ({
  generateRandom: (n: number) => randomBytes(n),
  hash: () => {
    throw new Error('unused');
  },
  signJwt: async (signer: { publicJwk?: JWK; x5c?: string[] }, { header, payload }: { header: object; payload: object }) => {
    const pair = [...keys.values()].find((k) => k.publicJwk.x === signer.publicJwk?.x) ?? keys.get('provider')!;
    return { jwt: await new SignJWT(payload as never).setProtectedHeader(header as never).sign(pair.privateKey), signerJwk: pair.publicJwk as never };
  },
});

async function wallet(provider: Pair, options: { expiresAt?: Date; issuer?: string } = {}) {
  const instance = await keyPair();
  const keys = new Map([
    ['provider', provider],
    ['instance', instance],
  ]);
  const attestation = await createClientAttestationJwt({
    issuer: options.issuer ?? 'Acme Wallet',
    clientId: 'wallet-client',
    confirmation: { jwk: instance.publicJwk as never },
    expiresAt: options.expiresAt ?? new Date(Date.now() + 3600_000),
    signer: { method: 'jwk', alg: 'ES256', publicJwk: provider.publicJwk as never },
    callbacks: callbacks(keys) as never,
  });
  // The wallet library's own client authentication sets both headers for a request to `aud`.
  const pop = async (aud = AS) => {
    const headers = new Headers();
    await clientAuthenticationClientAttestationJwt({ clientAttestationJwt: attestation, callbacks: callbacks(keys) as never })({
      headers,
      authorizationServerMetadata: { issuer: aud },
    } as never);
    expect(headers.get('OAuth-Client-Attestation')).toBe(attestation);
    return headers.get('OAuth-Client-Attestation-PoP')!;
  };
  return { attestation, pop, instance };
}

const seen = new Set<string>();
const check = (providers: WalletProviders) => ({
  providers,
  audience: AS,
  now: new Date(),
  remember: async (jti: string) => {
    if (seen.has(jti)) return false;
    seen.add(jti);
    return true;
  },
});

describe('client attestations', () => {
  it('takes a wallet’s attestation and PoP, and names its client, provider and instance key', async () => {
    const provider = await keyPair();
    const providers = new WalletProviders([{ name: 'Acme Wallet', keys: [provider.publicJwk as never] }]);
    const w = await wallet(provider);
    const attested = await verifyClientAttestation({ attestation: w.attestation, pop: await w.pop() }, check(providers));
    expect(attested).toEqual({ clientId: 'wallet-client', provider: 'Acme Wallet', instanceKey: expect.objectContaining({ x: w.instance.publicJwk.x }) });
  });

  it('refuses a forged or expired attestation, an unknown provider, a PoP for another audience, a replayed PoP, and one header alone', async () => {
    const provider = await keyPair();
    const forger = await keyPair();
    const providers = new WalletProviders([{ name: 'Acme Wallet', keys: [provider.publicJwk as never] }]);
    const forged = await wallet({ ...forger, publicJwk: { ...forger.publicJwk, kid: provider.publicJwk.kid } });
    await expect(verifyClientAttestation({ attestation: forged.attestation, pop: await forged.pop() }, check(providers))).rejects.toThrow(
      /signature does not verify/,
    );
    const expired = await wallet(provider, { expiresAt: new Date(Date.now() - 120_000) });
    await expect(verifyClientAttestation({ attestation: expired.attestation, pop: await expired.pop() }, check(providers))).rejects.toThrow(/expired/);
    const stranger = await wallet(provider, { issuer: 'Other Wallet' });
    await expect(verifyClientAttestation({ attestation: stranger.attestation, pop: await stranger.pop() }, check(providers))).rejects.toThrow(
      /not a trusted wallet provider/,
    );
    const w = await wallet(provider);
    await expect(verifyClientAttestation({ attestation: w.attestation, pop: await w.pop('https://elsewhere.example') }, check(providers))).rejects.toThrow(
      /PoP: its aud/,
    );
    const pop = await w.pop();
    await verifyClientAttestation({ attestation: w.attestation, pop }, check(providers));
    await expect(verifyClientAttestation({ attestation: w.attestation, pop }, check(providers))).rejects.toThrow(/jti was used before/);
    // A PoP signed by a key other than the attested instance's.
    const other = await wallet(provider);
    await expect(verifyClientAttestation({ attestation: w.attestation, pop: await other.pop() }, check(providers))).rejects.toThrow(/PoP/);
    const headers = new Map([['OAuth-Client-Attestation', w.attestation]]);
    expect(() => presentedAttestation((n) => headers.get(n))).toThrow(AttestationError);
    expect(presentedAttestation(() => undefined)).toBeUndefined();
  });

  it('trusts a provider by its root certificate: the attestation’s x5c chain must end in it', async () => {
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const rootKeys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const now = new Date();
    const root = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=Acme Wallet Root, C=DE',
      notBefore: now,
      notAfter: new Date(now.getTime() + 864e5),
      keys: rootKeys as never,
      signingAlgorithm: alg,
      extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
    });
    /** A certificate for a new key, issued by `issuer` (no CA flag: an end-entity certificate). */
    const certify = async (serialNumber: string, subject: string, issuer: { subject: string; privateKey: unknown }) => {
      const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
      const certificate = await x509.X509CertificateGenerator.create({
        serialNumber,
        subject,
        issuer: issuer.subject,
        notBefore: now,
        notAfter: new Date(now.getTime() + 864e5),
        signingKey: issuer.privateKey as never,
        publicKey: keys.publicKey as never,
        signingAlgorithm: alg,
      });
      return { certificate, keys };
    };
    const { certificate: leaf, keys: leafKeys } = await certify('02', 'CN=Acme Wallet attestations, C=DE', {
      subject: root.subject,
      privateKey: rootKeys.privateKey,
    });
    const providers = new WalletProviders(ZWalletProviders.parse(JSON.stringify([{ name: 'Acme Wallet', certificate: root.toString('pem') }])));
    const instance = await keyPair();
    const attestationBy = (key: unknown, x5c?: string[]) =>
      new SignJWT({ iss: 'Acme Wallet', sub: 'wallet-client', cnf: { jwk: instance.publicJwk } })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation+jwt', ...(x5c ? { x5c } : {}) })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key as never);
    const attestation = await attestationBy(leafKeys.privateKey, [leaf.toString('base64')]);
    const pop = await new SignJWT({ aud: AS, jti: randomBytes(8).toString('hex') })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation-pop+jwt' })
      .setIssuedAt()
      .sign(instance.privateKey);
    expect((await verifyClientAttestation({ attestation, pop }, check(providers))).clientId).toBe('wallet-client');
    await expect(verifyClientAttestation({ attestation: await attestationBy(leafKeys.privateKey), pop }, check(providers))).rejects.toThrow(/x5c chain/);
    // The holder of an end-entity certificate under the root cannot certify a key of its choosing.
    const forged = await certify('03', 'CN=Anything, C=DE', { subject: leaf.subject, privateKey: leafKeys.privateKey });
    const byAttacker = await attestationBy(forged.keys.privateKey, [forged.certificate.toString('base64'), leaf.toString('base64')]);
    await expect(verifyClientAttestation({ attestation: byAttacker, pop }, check(providers))).rejects.toThrow(/non-CA as an issuer/);
  });

  it('refuses a configuration that is not a list of providers, or holds a private key, naming what is wrong', () => {
    expect(ZWalletProviders.safeParse('{"name": "x"}').success).toBe(false);
    expect(ZWalletProviders.safeParse(JSON.stringify([{ name: 'x', keys: [{ kty: 'EC', d: 'secret' }] }])).success).toBe(false);
    expect(ZWalletProviders.safeParse(JSON.stringify([{ name: 'x', certificate: 'not a pem' }])).success).toBe(false);
    expect(ZWalletProviders.parse('')).toEqual([]);
  });
});

describe('key attestations', () => {
  const attestationOf = (provider: Pair, keys: JWK[], claims: object = {}, typ = 'key-attestation+jwt') =>
    new SignJWT({
      iss: 'Acme Wallet',
      attested_keys: keys,
      key_storage: ['iso_18045_high'],
      nonce: 'n-1',
      exp: Math.floor(Date.now() / 1000) + 3600,
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', typ, kid: provider.publicJwk.kid })
      .setIssuedAt()
      .sign(provider.privateKey);

  it('lists the keys a trusted provider vouches for, and how they are kept', async () => {
    const provider = await keyPair();
    const providers = new WalletProviders([{ name: 'Acme Wallet', keys: [provider.publicJwk as never] }]);
    const [a, b] = [await keyPair(), await keyPair()];
    const attestation = await verifyKeyAttestation(await attestationOf(provider, [a.publicJwk]), { providers, now: new Date() });
    expect(attestation).toMatchObject({ provider: 'Acme Wallet', nonce: 'n-1', keyStorage: ['iso_18045_high'] });
    // By thumbprint: the kid a proof's jwk carries does not matter.
    expect(await attests(attestation, { ...a.publicJwk, kid: 'other' })).toBe(true);
    expect(await attests(attestation, b.publicJwk)).toBe(false);
  });

  it('refuses another typ, an expired one, an unknown signer, and private keys among the attested', async () => {
    const provider = await keyPair();
    const providers = new WalletProviders([{ name: 'Acme Wallet', keys: [provider.publicJwk as never] }]);
    const k = await keyPair();
    const check = { providers, now: new Date() };
    await expect(verifyKeyAttestation(await attestationOf(provider, [k.publicJwk], {}, 'jwt'), check)).rejects.toThrow(/typ/);
    await expect(verifyKeyAttestation(await attestationOf(provider, [k.publicJwk], { exp: Math.floor(Date.now() / 1000) - 120 }), check)).rejects.toThrow(
      /expired/,
    );
    const stranger = await keyPair();
    await expect(verifyKeyAttestation(await attestationOf({ ...stranger, publicJwk: provider.publicJwk }, [k.publicJwk]), check)).rejects.toThrow(/signature/);
    await expect(verifyKeyAttestation(await attestationOf(provider, [{ ...k.publicJwk, d: 'x' }]), check)).rejects.toThrow(/public JWKs/);
  });
});
