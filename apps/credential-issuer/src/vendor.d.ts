// Types for Digital Bazaar's libraries, which ship none: only what ./vc uses, as it uses it.

declare module '@digitalbazaar/bls12-381-multikey' {
  export interface BlsKeyPair {
    signer(): unknown;
    export(options: {
      publicKey?: boolean;
      secretKey?: boolean;
      includeContext?: boolean;
    }): Promise<{ publicKeyMultibase: string; secretKeyMultibase?: string }>;
  }
  export const ALGORITHMS: { BBS_BLS12381_SHA256: string };
  export function generateBbsKeyPair(options: { algorithm: string }): Promise<BlsKeyPair>;
  export function from(key: { type?: string; id?: string; controller?: string; publicKeyMultibase: string; secretKeyMultibase?: string }): Promise<BlsKeyPair>;
}

declare module '@digitalbazaar/bbs-2023-cryptosuite' {
  export interface Cryptosuite {
    createVerifyData(args: { proof: Record<string, unknown> } & Record<string, unknown>): Promise<unknown>;
    [member: string]: unknown;
  }
  export function createSignCryptosuite(options?: { mandatoryPointers?: string[] }): Cryptosuite;
  export function createDiscloseCryptosuite(options: { selectivePointers: string[] }): Cryptosuite;
  export function createVerifyCryptosuite(): Cryptosuite;
}

declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; date?: Date; cryptosuite: unknown });
  }
}

declare module '@digitalbazaar/vc' {
  type Loader = (url: string) => Promise<unknown>;
  export interface VerifyError {
    message?: string;
    errors?: VerifyError[];
  }
  export interface VerifyResult {
    verified: boolean;
    error?: VerifyError;
    results?: { verified: boolean; error?: VerifyError }[];
  }
  export function issue(options: { credential: object; suite: unknown; documentLoader: Loader }): Promise<Record<string, any>>;
  export function derive(options: { verifiableCredential: object; suite: unknown; documentLoader: Loader }): Promise<Record<string, any>>;
  export function verifyCredential(options: {
    credential: object;
    suite: unknown;
    documentLoader: Loader;
    checkStatus: (options: { credential: object; documentLoader: Loader; suite: unknown }) => Promise<{ verified: boolean }>;
  }): Promise<VerifyResult>;
  export function verify(options: {
    presentation: object;
    challenge?: string | undefined;
    domain?: string | undefined;
    suite: unknown[];
    documentLoader: Loader;
    checkStatus: () => Promise<{ verified: boolean }>;
  }): Promise<VerifyResult & { presentationResult?: unknown; credentialResults?: unknown }>;
  export class CredentialIssuancePurpose {}
  export function createPresentation(options: { verifiableCredential?: object[]; holder?: string; id?: string }): Record<string, any>;
  export function signPresentation(options: {
    presentation: object;
    suite: unknown;
    challenge: string;
    domain?: string;
    documentLoader: Loader;
  }): Promise<Record<string, any>>;
}

// Test-only: the verifier's side of Bitstring Status Lists.
declare module '@digitalbazaar/vc-bitstring-status-list' {
  type Loader = (url: string) => Promise<unknown>;
  export function checkStatus(options: {
    credential: object;
    documentLoader: Loader;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<{ verified: boolean; error?: Error; results?: { verified: boolean; status: boolean }[] }>;
  export function decodeList(options: { encodedList: string }): Promise<{ length: number; getStatus(index: number): boolean }>;
}
// Every context package the loader bundles exports its documents by URL.
declare module '@digitalbazaar/*-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalbazaar/did-method-key' {
  export function driver(): {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: (key: { publicKeyMultibase: string }) => Promise<unknown> }): void;
    get(options: { url: string }): Promise<unknown>;
  };
}

declare module '@digitalbazaar/bbs-signatures' {
  interface Signing {
    secretKey: Uint8Array;
    publicKey: Uint8Array;
    header: Uint8Array;
    messages: Uint8Array[];
    ciphersuite: string;
  }
  export function secretKeyToPublicKey(options: { secretKey: Uint8Array; ciphersuite: string }): Promise<Uint8Array>;
  export function sign(options: Signing): Promise<Uint8Array>;
  export function verifySignature(options: Omit<Signing, 'secretKey'> & { signature: Uint8Array }): Promise<boolean>;
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}
declare module '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite' {
  export const cryptosuite: unknown;
}
declare module '@digitalbazaar/ed25519-multikey' {
  export function from(key: object): Promise<unknown>;
  export function generate(
    options?: object,
  ): Promise<{ id?: string; controller?: string; signer(): unknown; export(o: object): Promise<{ publicKeyMultibase: string }> }>;
}
declare module '@digitalbazaar/ecdsa-multikey' {
  export function from(key: object): Promise<unknown>;
  export function generate(options: {
    curve: string;
  }): Promise<{ id?: string; controller?: string; signer(): unknown; export(o: object): Promise<{ publicKeyMultibase: string }> }>;
}

declare module 'jsonld' {
  const jsonld: {
    toRDF(
      document: unknown,
      options: { documentLoader: (url: string) => Promise<unknown>; safe?: boolean; rdfDirection?: 'i18n-datatype' | 'compound-literal' },
    ): Promise<unknown[]>;
  };
  export default jsonld;
}

declare module 'jsonld-signatures' {
  const jsigs: {
    verify(document: object, options: { suite: unknown; purpose: unknown; documentLoader: (url: string) => Promise<unknown> }): Promise<{ verified: boolean }>;
  };
  export default jsigs;
}
