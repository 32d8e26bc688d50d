export { ApiKeyAuthenticator, type ApiKeyRecord, type ApiKeyResult, type ApiKeyAuthenticatorOptions } from './authenticator.js';
export { KeyLimiter, rateLimitHeaders, type KeyDecision, type KeyLimits, type KeyLimiterOptions } from './key-limiter.js';
export { LimitEvents } from './limit-events.js';
