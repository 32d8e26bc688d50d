// A WebAuthn authenticator in Node for API-level tests, built as the spec lays the bytes out
// (WebAuthn §6.1 authenticator data, §6.5 attestation objects, COSE keys per RFC 9053), with
// cbor-x for CBOR and node:crypto for keys and signatures. The browser tests use Chromium's own
// virtual authenticator instead; this one can also do what no honest authenticator does (sign for
// another origin or RP ID, skip user verification, turn its counter back), which is what the
// refusals are tested with.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { Encoder } from 'cbor-x';
import type { AttestationCa } from './attestation-ca.js';

const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

/** What a test may change of one ceremony, to make it dishonest. */
export interface Tamper {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  /** The counter to report (sign-in); by default one more than last time. */
  counter?: number;
  /** Answer another challenge than the one given. */
  challenge?: string;
  /** A credential id of another's, with this authenticator's own key. */
  credentialId?: string;
}

interface Held {
  id: Buffer;
  key: KeyObject;
  userHandle: string;
  counter: number;
}

// Plain CBOR as RFC 8949 writes it: no cbor-x record extension, byte strings untagged.
const cbor = new Encoder({ useRecords: false, mapsAsObjects: false, tagUint8Array: false, variableMapSize: true });
const encode = (value: unknown) => cbor.encode(value);

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export class TestAuthenticator {
  readonly held: Held[] = [];

  constructor(
    private readonly origin: string,
    private readonly options: { synced?: boolean; attestation?: AttestationCa } = {},
  ) {}

  private rpId = () => new URL(this.origin).hostname;
  private flags = (uv: boolean) => FLAG.UP | (uv ? FLAG.UV : 0) | (this.options.synced ? FLAG.BE | FLAG.BS : 0);

  private clientData(type: string, challenge: string, tamper: Tamper): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: tamper.challenge ?? challenge, origin: tamper.origin ?? this.origin, crossOrigin: false }));
  }

  /** A new credential for `options` (PublicKeyCredentialCreationOptionsJSON), as RegistrationResponseJSON. */
  create(options: { challenge: string; user: { id: string } }, tamper: Tamper = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = tamper.credentialId ? Buffer.from(tamper.credentialId, 'base64url') : randomBytes(16);
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const coseKey = encode(
      new Map<number, number | Buffer>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(tamper.rpId ?? this.rpId()),
      Buffer.from([this.flags(tamper.userVerified ?? true) | FLAG.AT]),
      u32(0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      id,
      coseKey,
    ]);
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, tamper);
    const attestation = this.options.attestation;
    const attStmt = attestation
      ? { alg: -7, sig: sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), attestation.leafKey), x5c: [attestation.leafDer] }
      : {};
    const attestationObject = encode({ fmt: attestation ? 'packed' : 'none', attStmt, authData });
    this.held.push({ id, key: privateKey, userHandle: options.user.id, counter: 0 });
    return {
      id: id.toString('base64url'),
      rawId: id.toString('base64url'),
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
    };
  }

  /** A signed answer to `options` (PublicKeyCredentialRequestOptionsJSON) with the held credential `which` (the newest by default). */
  get(options: { challenge: string }, tamper: Tamper = {}, which = this.held.length - 1) {
    const held = this.held[which]!;
    held.counter = tamper.counter ?? held.counter + 1;
    const authData = Buffer.concat([sha256(tamper.rpId ?? this.rpId()), Buffer.from([this.flags(tamper.userVerified ?? true)]), u32(held.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tamper);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), held.key);
    const id = tamper.credentialId ? Buffer.from(tamper.credentialId, 'base64url') : held.id;
    return {
      id: id.toString('base64url'),
      rawId: id.toString('base64url'),
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: held.userHandle,
      },
    };
  }
}
