export { ApiKeyAuthenticator, type ApiKeyRecord, type ApiKeyResult, type ApiKeyAuthenticatorOptions } from './authenticator.js';
