export { KEY_ALGORITHMS, KEY_SERVICES, generateKey, type KeyAlgorithm, type KeyService, type NewKey } from './generate.js';
export { KEK_VARIABLES, KeyEncryption, type KekSettings, type SealedPrivateKey } from './key-encryption.js';
export { ensureSigningKey, rotateSigningKey, rewrapSigningKeys, type KeyStoreContext } from './rotate.js';
export { generateWebhookSecret, WebhookSecrets, rewrapWebhookSecrets } from './webhook-secrets.js';
