// A wallet, made of libraries this project did not write: @openid4vc/openid4vci runs the
// pre-authorized code flow; @sd-jwt/sd-jwt-vc presents and verifies what it received.
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { clientAuthenticationAnonymous } from '@openid4vc/oauth2';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

// These tests run on http://127.0.0.1; a wallet in the field refuses anything but https.
setGlobalConfig({ allowInsecureUrls: true });

export interface Holder {
  alg: 'ES256' | 'EdDSA';
  publicJwk: JWK;
  privateKey: CryptoKey;
}

export async function newHolder(alg: Holder['alg'] = 'ES256'): Promise<Holder> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
  return { alg, publicJwk: await exportJWK(publicKey), privateKey };
}

/** A wallet client; `clientAuthentication` as @openid4vc/oauth2 makes it (anonymous unless given: a wallet attestation, say). */
export function walletClient(holder: Holder, clientAuthentication = clientAuthenticationAnonymous()) {
  return new Openid4vciClient({
    callbacks: {
      hash: (data, alg) => createHash(alg.replace('-', '')).update(data).digest(),
      generateRandom: (length) => randomBytes(length),
      signJwt: async (signer, { header, payload }) => ({
        jwt: await new SignJWT(payload as Record<string, unknown>).setProtectedHeader(header as { alg: string }).sign(holder.privateKey),
        signerJwk: (signer as { publicJwk: JWK }).publicJwk as never,
      }),
      clientAuthentication,
    },
  });
}

/** The holder's did:jwk: a wallet binds W3C credentials (ldp_vc) to a DID. */
export const didJwk = (holder: Holder) => `did:jwk:${Buffer.from(JSON.stringify(holder.publicJwk)).toString('base64url')}`;

/**
 * The whole pre-authorized code flow, as a wallet runs it from the link it scanned; the proof names
 * the holder's key as a jwk, or (`bind: 'did'`) by its did:jwk.
 */
export async function receive(holder: Holder, offerLink: string, txCode?: string, bind: 'jwk' | 'did' = 'jwk', options: { dpop?: boolean } = {}) {
  const client = walletClient(holder);
  const credentialOffer = await client.resolveCredentialOffer(offerLink);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  // With DPoP (RFC 9449) the token is bound to the holder's key, and every use of it proves that key.
  const signer = { method: 'jwk' as const, alg: holder.alg, publicJwk: holder.publicJwk as never };
  const { accessTokenResponse, dpop } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    ...(txCode ? { txCode } : {}),
    ...(options.dpop ? { dpop: { signer } } : {}),
  });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const credentialConfigurationId = credentialOffer.credential_configuration_ids[0]!;
  const { jwt } = await client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId,
    nonce: c_nonce,
    signer:
      bind === 'jwk'
        ? { method: 'jwk', alg: holder.alg, publicJwk: holder.publicJwk as never }
        : { method: 'did', alg: holder.alg, didUrl: `${didJwk(holder)}#0` },
  });
  const { credentialResponse } = await client.retrieveCredentials({
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentialConfigurationId,
    proofs: { jwt: [jwt] },
    ...(dpop ? { dpop } : {}),
  });
  return {
    credential: (credentialResponse.credentials![0] as { credential: string }).credential,
    issuerMetadata,
    credentialOffer,
    accessTokenResponse,
  };
}

/** The same flow for a W3C credential: its JSON object as received. */
export async function receiveLdp(holder: Holder, offerLink: string, txCode?: string) {
  const { credential, issuerMetadata } = await receive(holder, offerLink, txCode, 'did');
  return { credential: credential as unknown as Record<string, any>, issuerMetadata };
}

/** The holder shows only `disclose`, bound to a verifier's nonce and audience. */
export async function present(holder: Holder, credential: string, disclose: Record<string, boolean>, kb: { aud: string; nonce: string }) {
  // A JWS signature: ECDSA's raw r||s, as WebCrypto makes it, or Ed25519's.
  const kbSigner = async (data: string) =>
    Buffer.from(
      await crypto.subtle.sign(
        holder.alg === 'ES256' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'Ed25519' },
        holder.privateKey,
        new TextEncoder().encode(data),
      ),
    ).toString('base64url');
  const sdjwt = new SDJwtVcInstance({ hasher: digest, kbSigner, kbSignAlg: holder.alg });
  return sdjwt.present(credential, disclose, { kb: { payload: { ...kb, iat: Math.floor(Date.now() / 1000) } } });
}

/**
 * A verifier that knows only the issuer's URL: its keys from /.well-known/jwt-vc-issuer, the
 * status list from the URI in the credential, the key binding checked against `cnf.jwk`.
 */
export async function verify(issuerUrl: string, presentation: string, nonce: string, requiredClaimKeys: string[] = []) {
  const { jwks } = (await (await fetch(`${issuerUrl}/.well-known/jwt-vc-issuer`)).json()) as { jwks: { keys: (JWK & { kid: string })[] } };
  return verifyWith(presentation, nonce, requiredClaimKeys, async (header) => jwks.keys.find((k) => k.kid === header.kid));
}

/**
 * A HAIP verifier: the issuer's key only from the `x5c` chain in each JWT's header (the credential
 * and its Status List Token), checked with Node's own X.509 (OpenSSL) against the CA it trusts:
 * issued and signed by it, valid now, and naming the credential's `iss` as a SAN URI.
 */
export async function verifyByCertificate(caPem: string, presentation: string, nonce: string, requiredClaimKeys: string[] = []) {
  const ca = new X509Certificate(caPem);
  return verifyWith(presentation, nonce, requiredClaimKeys, async (header, payload) => {
    const chain = (header.x5c as string[] | undefined)?.map((c) => new X509Certificate(Buffer.from(c, 'base64')));
    if (!chain?.length) throw new Error('no x5c in the header');
    const leaf = chain[0]!;
    const top = chain.at(-1)!;
    for (let i = 0; i + 1 < chain.length; i++) if (!chain[i]!.verify(chain[i + 1]!.publicKey)) throw new Error('broken chain');
    if (!top.checkIssued(ca) || !top.verify(ca.publicKey)) throw new Error('chain not issued by the trusted CA');
    const time = Date.now();
    if (chain.some((c) => new Date(c.validFrom).getTime() > time || new Date(c.validTo).getTime() < time)) throw new Error('certificate not valid now');
    if (!leaf.subjectAltName?.split(', ').includes(`URI:${payload.iss}`)) throw new Error(`the certificate does not name ${String(payload.iss)}`);
    return leaf.publicKey.export({ format: 'jwk' }) as JWK;
  });
}

type KeyOf = (header: Record<string, unknown>, payload: Record<string, unknown>) => Promise<JWK | undefined>;

async function verifyWith(presentation: string, nonce: string, requiredClaimKeys: string[], keyOf: KeyOf) {
  const verifier = async (data: string, signature: string) => {
    const [header, payload] = data.split('.').map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    const key = await keyOf(header, payload);
    return key ? (await ES256.getVerifier(key as never))(data, signature) : false;
  };
  const sdjwt = new SDJwtVcInstance({
    hasher: digest,
    verifier,
    kbVerifier: async (data, signature, payload) => {
      const jwk = (payload as { cnf: { jwk: JWK } }).cnf.jwk;
      const key = await crypto.subtle.importKey('jwk', jwk, jwk.kty === 'EC' ? { name: 'ECDSA', namedCurve: 'P-256' } : { name: 'Ed25519' }, false, ['verify']);
      return crypto.subtle.verify(
        jwk.kty === 'EC' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'Ed25519' },
        key,
        Buffer.from(signature, 'base64url'),
        new TextEncoder().encode(data),
      );
    },
    statusListFetcher: async (uri) => {
      const res = await fetch(uri);
      if (res.headers.get('content-type')?.split(';')[0] !== 'application/statuslist+jwt')
        throw new Error(`status list served as ${res.headers.get('content-type')}`);
      return res.text();
    },
    loadTypeMetadataFormat: false,
  });
  return sdjwt.verify(presentation, { keyBindingNonce: nonce, requiredClaimKeys });
}
