export { ATTESTATION_ALGORITHMS, AttestationError, WalletProviders, type WalletProviderSettings, ZWalletProviders } from './providers.js';
export {
  ATTEST_JWT_CLIENT_AUTH,
  attestedClientOf,
  type AttestedClient,
  CLIENT_ATTESTATION_HEADER,
  CLIENT_ATTESTATION_POP_HEADER,
  type ClientAttestationCheck,
  presentedAttestation,
  verifyClientAttestation,
} from './client-attestation.js';
export { attests, KEY_ATTESTATION_TYP, type KeyAttestation, verifyKeyAttestation } from './key-attestation.js';
