export { KEY_SERVICES, generateKey, type KeyService, type NewKey } from './generate.js';
export { KeyEncryption, type SealedPrivateKey } from './key-encryption.js';
export { ensureSigningKey, rotateSigningKey, rewrapSigningKeys, type KeyStoreContext } from './rotate.js';
