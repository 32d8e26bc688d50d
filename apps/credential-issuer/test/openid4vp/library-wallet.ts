// A wallet made of libraries this project did not write, to answer OpenID4VP 1.0 requests as a
// wallet in the field would: @openid4vc/openid4vp resolves the request (fetches and verifies the
// request object, checks the x509_hash client identifier) and creates and encrypts the
// direct_post.jwt answer; @sd-jwt/sd-jwt-vc presents SD-JWT VCs with key binding; @animo-id/mdoc
// builds a device-signed DeviceResponse. This module does only what those libraries leave to their
// caller: the crypto callbacks (node:crypto and jose), the choice of claims from the DCQL query and
// the OpenID4VP 1.0 session transcript, which @animo-id/mdoc 0.5.2 predates.
import { createHash, createPrivateKey, X509Certificate, sign as nodeSign } from 'node:crypto';
import { cborEncode, DataItem, DeviceRequest, DeviceResponse, MDoc, type MdocContext, parseIssuerSigned } from '@animo-id/mdoc';
import { type CallbackContext, calculateJwkThumbprint, HashAlgorithm, type Jwk, setGlobalConfig } from '@openid4vc/oauth2';
import {
  extractEncryptionJwkFromJwks,
  Openid4vpClient,
  type Openid4vpAuthorizationRequest,
  type Openid4vpAuthorizationRequestDcApi,
  type ResolvedOpenid4vpAuthorizationRequest,
} from '@openid4vc/openid4vp';
import { digest, ES256, getSigner } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { base64url, CompactEncrypt, compactVerify, importJWK, type JWK } from 'jose';

// The verifiers of these tests listen on http://127.0.0.1; a wallet in the field refuses anything but https.
setGlobalConfig({ allowInsecureUrls: true });

/** A DCQL claims query entry (OpenID4VP 1.0 §6.3): a path into the credential. */
export interface DcqlClaim {
  id?: string;
  path: (string | number | null)[];
  values?: unknown[];
  intent_to_retain?: boolean;
}
/** A DCQL credential query (OpenID4VP 1.0 §6.1), as much of it as this wallet reads. */
export interface DcqlCredentialQuery {
  id: string;
  format: string;
  meta?: { vct_values?: string[]; doctype_value?: string };
  claims?: DcqlClaim[];
  claim_sets?: string[][];
}
export interface DcqlQuery {
  credentials: DcqlCredentialQuery[];
  credential_sets?: unknown[];
}

/** A request the wallet has resolved and verified: everything presenting and answering need. */
export interface WalletRequest {
  /** The verified request object's claims (client_id, nonce, state, response_uri, dcql_query, client_metadata, ...). */
  payload: Openid4vpAuthorizationRequest | Openid4vpAuthorizationRequestDcApi;
  /** The library's own result, for tests that look at the client (prefix, x5c) or the request JWT (jar). */
  resolved: ResolvedOpenid4vpAuthorizationRequest;
  dcqlQuery: DcqlQuery;
  /** The verifier's key the answer is encrypted to: chosen once, as the mdoc transcript must name the same key. */
  encryptionJwk: Jwk;
  /** The KB-JWT `aud`: the client_id, or `origin:<origin>` over the DC API (OpenID4VP 1.0 Appendix A.4). */
  audience: string;
  /** Set when the request came through the Digital Credentials API. */
  origin?: string;
}

const hash: CallbackContext['hash'] = (data, alg) => createHash(alg.replace('-', '').toLowerCase()).update(data).digest();

/** The leaf certificate of an `x5c` header (standard base64 DER). */
const leaf = (x5c: string) => new X509Certificate(Buffer.from(x5c, 'base64'));

/**
 * The library leaves all cryptography to its caller. The request object's signature is checked
 * against the leaf of its `x5c`; whether that leaf is the one the client_id names (x509_hash) the
 * library checks itself, as it does the JAR `typ` and `exp`.
 */
const callbacks: Omit<CallbackContext, 'generateRandom' | 'clientAuthentication'> = {
  hash,
  verifyJwt: async (signer, { compact }) => {
    if (signer.method !== 'x5c') return { verified: false };
    const publicKey = leaf(signer.x5c[0]!).publicKey;
    try {
      await compactVerify(compact, publicKey, { algorithms: [signer.alg] });
    } catch {
      return { verified: false };
    }
    return { verified: true, signerJwk: publicKey.export({ format: 'jwk' }) as Jwk };
  },
  getX509CertificateMetadata: (certificate) => {
    const names = leaf(certificate).subjectAltName?.split(', ') ?? [];
    const of = (prefix: string) => names.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
    return { sanDnsNames: of('DNS:'), sanUriNames: of('URI:') };
  },
  // ECDH-ES with the verifier's key, as the library describes the JWE; jose puts apu/apv in the header.
  encryptJwe: async (encryptor, data) => {
    if (encryptor.method !== 'jwk') throw new Error(`cannot encrypt to a ${encryptor.method} key`);
    const jwk = encryptor.publicJwk;
    const jwe = await new CompactEncrypt(new TextEncoder().encode(data))
      .setProtectedHeader({ alg: encryptor.alg, enc: encryptor.enc, ...(jwk.kid ? { kid: jwk.kid } : {}) })
      .setKeyManagementParameters({
        ...(encryptor.apu ? { apu: base64url.decode(encryptor.apu) } : {}),
        ...(encryptor.apv ? { apv: base64url.decode(encryptor.apv) } : {}),
      })
      .encrypt(await importJWK(jwk as JWK, encryptor.alg));
    return { jwe, encryptionJwk: jwk };
  },
  signJwt: () => {
    throw new Error('this wallet signs no JARM response: OpenID4VP 1.0 answers are encrypted only');
  },
  decryptJwe: () => {
    throw new Error('this wallet takes no encrypted request objects');
  },
};

const client = new Openid4vpClient({ callbacks });

/** What the wallet supports for the encrypted answer: ECDH-ES with the GCM encodings OpenID4VP 1.0 names. */
const JARM_SERVER_METADATA = {
  authorization_signing_alg_values_supported: ['ES256'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
};

async function toWalletRequest(resolved: ResolvedOpenid4vpAuthorizationRequest, origin?: string): Promise<WalletRequest> {
  const payload = resolved.authorizationRequestPayload;
  const jwks = payload.client_metadata?.jwks;
  if (!jwks) throw new Error('the request names no encryption key (client_metadata.jwks)');
  // The library's own choice of key, made here once so the answer and the mdoc transcript agree.
  const encryptionJwk = extractEncryptionJwkFromJwks(jwks, { supportedAlgValues: JARM_SERVER_METADATA.authorization_encryption_alg_values_supported });
  if (!encryptionJwk) throw new Error('no encryption key in client_metadata.jwks');
  if (!resolved.dcql) throw new Error('the request has no dcql_query');
  return {
    payload,
    resolved,
    dcqlQuery: resolved.dcql.query as DcqlQuery,
    encryptionJwk,
    audience: origin ? `origin:${origin}` : resolved.client.effective,
    ...(origin ? { origin } : {}),
  };
}

/**
 * What a wallet does with the link it scanned: parse it, GET `request_uri`, verify the signed
 * request object (signature with its x5c leaf, x509_hash = the leaf's SHA-256, typ, exp, the
 * client_id of the link = the one signed) and validate the request: all in the library.
 */
export async function resolveRequest(requestLink: string): Promise<WalletRequest> {
  const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: requestLink });
  const resolved = await client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
  return toWalletRequest(resolved);
}

/**
 * A request as the browser hands it to the wallet over the Digital Credentials API: `data` of the
 * `openid4vp-v1-signed` ({request: <JWT>}) or `-unsigned` protocol, and the page's origin (which
 * the library checks against `expected_origins` of a signed request).
 */
export async function resolveDcApiRequest(data: Record<string, unknown>, origin: string): Promise<WalletRequest> {
  const resolved = await client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: data as never, origin });
  return toWalletRequest(resolved, origin);
}

/** The credential query of the request for a format (and, for several, its id): whose id keys the vp_token. */
export function credentialQuery(request: WalletRequest, format: 'dc+sd-jwt' | 'mso_mdoc', id?: string): DcqlCredentialQuery {
  const query = request.dcqlQuery.credentials.find((q) => q.format === format && (id === undefined || q.id === id));
  if (!query) throw new Error(`the DCQL query asks for no ${format} credential${id ? ` with id ${id}` : ''}`);
  return query;
}

/** The claims a query asks for: those of its first claim set when it has claim sets (the wallet's first choice), else all. */
function requestedClaims(query: DcqlCredentialQuery): DcqlClaim[] {
  const claims = query.claims ?? [];
  const set = query.claim_sets?.[0];
  return set ? claims.filter((c) => c.id !== undefined && set.includes(c.id)) : claims;
}

/** A private key's JWS signer for the KB-JWT, from @sd-jwt/crypto-nodejs: ES256 or Ed25519. */
async function kbSignerOf(privateJwk: JWK) {
  if (privateJwk.kty === 'EC') return { kbSigner: await ES256.getSigner(privateJwk), kbSignAlg: 'ES256' };
  if (privateJwk.kty === 'OKP' && privateJwk.crv === 'Ed25519')
    return { kbSigner: await getSigner(privateJwk, { name: 'Ed25519' }, { name: 'Ed25519' }), kbSignAlg: 'EdDSA' };
  throw new Error(`no KB-JWT signer for a ${privateJwk.kty} ${privateJwk.crv ?? ''} key`);
}

/** @sd-jwt's presentation frame for claim paths: {address: {street: true}}; array indices as keys. */
function presentationFrame(paths: (string | number | null)[][]): Record<string, unknown> {
  const frame: Record<string, unknown> = {};
  for (const path of paths) {
    let node = frame;
    path.forEach((step, i) => {
      if (step === null) throw new Error('this wallet cannot disclose "all elements" (null) of a claim path');
      const key = String(step);
      if (i === path.length - 1) {
        node[key] = true;
        return;
      }
      if (typeof node[key] !== 'object') node[key] = {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return frame;
}

export interface SdJwtPresentationOptions {
  /** The claims to disclose, top-level names or paths; default: those the DCQL credential query names. */
  claims?: (string | (string | number)[])[];
  /** The credential query answered, when the request has several SD-JWT VC queries. */
  queryId?: string;
  /** The KB-JWT `aud`; default the request's audience (client_id, or origin:<origin>). For negative tests. */
  audience?: string;
  /** The KB-JWT `nonce`; default the request's nonce. For negative tests. */
  nonce?: string;
}

/**
 * The holder's SD-JWT VC presentation: `<issuer-signed jwt>~<disclosures>~<kb-jwt>`, disclosing
 * only the claims asked for, the KB-JWT (`typ: kb+jwt`, aud, nonce, iat, sd_hash) made and signed
 * by @sd-jwt/sd-jwt-vc with the holder's key (the private JWK of the credential's `cnf.jwk`).
 */
export async function presentSdJwtVc(
  credential: string,
  holderPrivateJwk: JWK,
  request: WalletRequest,
  options: SdJwtPresentationOptions = {},
): Promise<string> {
  const paths = options.claims
    ? options.claims.map((c) => (Array.isArray(c) ? c : [c]))
    : requestedClaims(credentialQuery(request, 'dc+sd-jwt', options.queryId)).map((c) => c.path);
  const sdjwt = new SDJwtVcInstance({ hasher: digest, ...(await kbSignerOf(holderPrivateJwk)) });
  return sdjwt.present(credential, presentationFrame(paths as (string | number | null)[][]) as never, {
    kb: { payload: { aud: options.audience ?? request.audience, nonce: options.nonce ?? request.payload.nonce, iat: Math.floor(Date.now() / 1000) } },
  });
}

/** The parts of the OpenID4VP 1.0 handover; each defaults to the request's, and may be overridden for negative tests. */
export interface TranscriptOptions {
  /** The DC API origin: the OpenID4VPDCAPIHandover (B.2.6.2) instead of the OpenID4VPHandover (B.2.6.1). */
  origin?: string;
  clientId?: string;
  nonce?: string;
  responseUri?: string;
  /** The verifier encryption key whose thumbprint is bound; null for an unencrypted answer. */
  encryptionJwk?: Jwk | null;
}

/**
 * The SessionTranscript of OpenID4VP 1.0 Appendix B.2.6, as the tag-24 bytes @animo-id/mdoc
 * signs over: [null, null, ["OpenID4VPHandover", sha256(cbor([client_id, nonce, jwk_thumbprint
 * or null, response_uri]))]], or over the DC API [null, null, ["OpenID4VPDCAPIHandover",
 * sha256(cbor([origin, nonce, jwk_thumbprint or null]))]]. @animo-id/mdoc 0.5.2 knows only the
 * drafts' handovers, so this builds it with that library's own CBOR encoder and DataItem.
 */
export async function sessionTranscript(request: WalletRequest, options: TranscriptOptions = {}): Promise<Uint8Array> {
  const origin = options.origin ?? request.origin;
  const nonce = options.nonce ?? request.payload.nonce;
  const encryptionJwk = options.encryptionJwk === undefined ? request.encryptionJwk : options.encryptionJwk;
  // RFC 7638 SHA-256 thumbprint, as the bytes themselves (a CBOR bstr), not their base64url.
  const thumbprint = encryptionJwk
    ? base64url.decode(await calculateJwkThumbprint({ jwk: encryptionJwk, hashAlgorithm: HashAlgorithm.Sha256, hashCallback: hash }))
    : null;
  const handover = origin
    ? ['OpenID4VPDCAPIHandover', hash(cborEncode([origin, nonce, thumbprint]), HashAlgorithm.Sha256)]
    : [
        'OpenID4VPHandover',
        hash(
          cborEncode([
            options.clientId ?? request.payload.client_id,
            nonce,
            thumbprint,
            options.responseUri ?? (request.payload as Openid4vpAuthorizationRequest).response_uri,
          ]),
          HashAlgorithm.Sha256,
        ),
      ];
  return cborEncode(DataItem.fromData([null, null, handover]));
}

/** What @animo-id/mdoc asks of its caller to make a device signature: digests, randomness and ECDSA over the COSE Sig_structure. */
function mdocContext(devicePrivateJwk: JWK): Pick<MdocContext, 'crypto' | 'cose'> {
  const unused = () => {
    throw new Error('a holder device-signs; it neither verifies nor MACs here');
  };
  return {
    crypto: {
      random: (length) => crypto.getRandomValues(new Uint8Array(length)),
      digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
      calculateEphemeralMacKeyJwk: unused,
    },
    cose: {
      sign1: {
        sign: ({ sign1 }) =>
          new Uint8Array(
            nodeSign('sha256', sign1.getRawSigningData().data, {
              key: createPrivateKey({ key: devicePrivateJwk as never, format: 'jwk' }),
              dsaEncoding: 'ieee-p1363',
            }),
          ),
        verify: unused,
      },
      mac0: { sign: unused, verify: unused },
    },
  };
}

export interface MdocPresentationOptions extends TranscriptOptions {
  /** The data elements to disclose as [namespace, element] (or bare names in the doctype's namespace); default: those the DCQL credential query names. */
  elements?: ([string, string] | string)[];
  /** The credential query answered, when the request has several mdoc queries. */
  queryId?: string;
}

/**
 * The holder's mdoc presentation: the base64url of a CBOR DeviceResponse made by @animo-id/mdoc
 * from the issued IssuerSigned (as OpenID4VCI delivers it: base64url or bytes), only the asked
 * elements disclosed (its DeviceRequest filtering), device-signed (ES256, COSE_Sign1) with the
 * device key over the OpenID4VP 1.0 session transcript.
 */
export async function presentMdoc(
  issuerSigned: string | Uint8Array,
  devicePrivateJwk: JWK,
  request: WalletRequest,
  options: MdocPresentationOptions = {},
): Promise<string> {
  const document = parseIssuerSigned(typeof issuerSigned === 'string' ? Buffer.from(issuerSigned, 'base64url') : issuerSigned);
  const elements: [string, string][] = options.elements
    ? options.elements.map((e) => (Array.isArray(e) ? e : [document.docType, e]))
    : requestedClaims(credentialQuery(request, 'mso_mdoc', options.queryId)).map((c) => {
        const [namespace, element] = c.path;
        if (typeof namespace !== 'string' || typeof element !== 'string') throw new Error(`not an mdoc claim path: ${JSON.stringify(c.path)}`);
        return [namespace, element];
      });
  const nameSpaces = new Map<string, Map<string, boolean>>();
  for (const [namespace, element] of elements) {
    if (!nameSpaces.has(namespace)) nameSpaces.set(namespace, new Map());
    nameSpaces.get(namespace)!.set(element, false);
  }
  const deviceRequest = DeviceRequest.from('1.0', [{ itemsRequestData: { docType: document.docType, nameSpaces } }]);
  const response = await DeviceResponse.from(new MDoc([document]))
    .usingDeviceRequest(deviceRequest)
    .usingSessionTranscriptBytes(await sessionTranscript(request, options))
    .authenticateWithSignature(devicePrivateJwk, 'ES256')
    .sign(mdocContext(devicePrivateJwk));
  return Buffer.from(response.encode()).toString('base64url');
}

/** The vp_token of OpenID4VP 1.0 §8.1: each DCQL credential query id to its presentations. */
export type VpToken = Record<string, string[]>;

/**
 * The compact JWE of an answer, made and encrypted by the library to the request's key (ECDH-ES,
 * the enc both sides support). `payload` is the plaintext as the verifier will read it: a
 * `vp_token` and the rest; `state` is the request's unless `payload` sets it (or sets it undefined,
 * to leave it out). For answers a wallet should never send: wrong nonce, other state, replays.
 */
export async function encryptAnswer(request: WalletRequest, payload: Record<string, unknown>, options: { origin?: string } = {}): Promise<string> {
  const { state, ...rest } = payload;
  const origin = options.origin ?? request.origin;
  // The library copies `state` from the request it is given into the answer.
  const authorizationRequestPayload = { ...request.payload, state: 'state' in payload ? (state as string | undefined) : request.payload.state };
  const { jarm } = await client.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload,
    authorizationResponsePayload: rest as never,
    ...(origin ? { origin } : {}),
    // OpenID4VP 1.0 has no wallet-generated nonce; an empty one leaves `apu` out of the JWE header.
    jarm: { encryption: { nonce: '', jwk: request.encryptionJwk }, serverMetadata: JARM_SERVER_METADATA },
  });
  if (!jarm) throw new Error('the library made no encrypted answer');
  return jarm.responseJwt;
}

/** POSTs an encrypted answer (`response=<jwe>`, form-encoded) to the request's response_uri with the library; the verifier's status and body. */
export async function postAnswer(request: WalletRequest, jwe: string): Promise<{ status: number; body: unknown }> {
  const { response } = await client.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request.payload as Openid4vpAuthorizationRequest,
    authorizationResponsePayload: { vp_token: {} },
    jarm: { responseJwt: jwe },
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body };
}

/** The honest answer over direct_post.jwt: `{vp_token, state}` encrypted and POSTed. */
export async function answer(request: WalletRequest, vpToken: VpToken): Promise<{ status: number; body: unknown }> {
  return postAnswer(request, await encryptAnswer(request, { vp_token: vpToken }));
}

/** The answer over the DC API: not POSTed but handed back to the page, which gets `{response: <jwe>}`. */
export async function dcApiAnswer(request: WalletRequest, vpToken: VpToken, origin = request.origin): Promise<{ response: string }> {
  if (!origin) throw new Error('an answer over the DC API needs the origin of the page');
  return { response: await encryptAnswer(request, { vp_token: vpToken }, { origin }) };
}
