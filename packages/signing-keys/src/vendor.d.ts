// Digital Bazaar's libraries ship no type declarations; only what this package calls is typed.
declare module '@digitalbazaar/bls12-381-multikey' {
  export const ALGORITHMS: { BBS_BLS12381_SHA256: string };
  export function generateBbsKeyPair(options: { algorithm: string; id?: string; controller?: string }): Promise<{
    export(options: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<{
      publicKeyMultibase: string;
      secretKeyMultibase?: string;
    }>;
  }>;
}
