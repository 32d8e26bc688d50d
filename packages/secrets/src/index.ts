export { seal, unseal, deriveKey } from './sealing.js';
export { randomBase62, sha256Hex, sha256Base64Url, constantTimeEqual } from './random.js';
export { generateApiKey, hashApiKey, parseApiKey, type GeneratedApiKey, type ParsedApiKey } from './api-keys.js';
export { generateClientSecret, hashClientSecret, verifyClientSecret, generateClientId } from './client-secrets.js';
export { hashPassword, verifyPassword, DUMMY_PASSWORD_HASH } from './passwords.js';
export { pairwiseUserId, pairwiseCandidates, isPairwiseUserId } from './pairwise-user-id.js';
export { type Environment, environmentOf, marked, SANDBOX_MARK } from './environments.js';
