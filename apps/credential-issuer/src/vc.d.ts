// Types for the plain ES modules under ./vc (they run in worker threads as they are).
declare module '*/vc/document-loader.js' {
  export const CREDENTIALS_V2: string;
  export const UNDEFINED_TERMS_V2: string;
  export function documentLoader(url: string): Promise<{ document: unknown }>;
  export function contextTerms(): Set<string>;
  export class DocumentNotBundledError extends Error {
    url: string;
  }
}

declare module '@digitalbazaar/bls12-381-multikey' {
  export const ALGORITHMS: { BBS_BLS12381_SHA256: string };
  export function generateBbsKeyPair(options: { algorithm: string }): Promise<{
    export(options: { publicKey?: boolean; secretKey?: boolean }): Promise<{ publicKeyMultibase: string; secretKeyMultibase?: string }>;
  }>;
}
