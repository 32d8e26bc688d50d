export { checkAddress, toChecksumAddress, type AddressCheck } from './eip55.js';
export { isUuid, ZEvmAddress, ZIsoDateTime, ZErrorBody } from './common.js';
export { ZLiveness, ZReadiness, ZServiceIndex, type Liveness, type Readiness } from './health.js';
export { ZWalletVerifyQuery, ZWalletVerification, ZAreaBError, type WalletVerification } from './wallet-verify.js';
export { CLIENT_SCOPES, SCOPES, ZScope, SCOPE_CATALOG, scopeDetail, withImplied, type Scope, type ScopeDetail } from './scopes.js';
export {
  ZPresetNameInput,
  ZPresetParams,
  ZPresetBatchRequest,
  ZPresetBatchResponse,
  ZPresetError,
  ZPresetResult,
  ZPresetInfo,
  ZPresetList,
  MAX_BATCH_PRESETS,
  PRESET_ERROR_CODES,
  PRESET_TYPES,
  type PresetErrorCode,
  type PresetError,
  type PresetResult,
  type PresetInfo,
} from './presets.js';
export {
  OPERATORS,
  type Operator,
  ZQueryEvaluateRequest,
  ZQuery,
  ZCheck,
  ZPolicy,
  ZLens,
  ZQueryResponse,
  ZPredicateResponse,
  ZProjectionResponse,
} from './queries.js';
export { GRANT_TYPES, ZGrantType, grantTypesFor, grantTypesInWords, type GrantType } from './grant-types.js';
export * from './oauth.js';
export * from './sessions.js';
export * from './developer.js';
export * from './discovery.js';
export * from './credentials.js';
export { redirectUriProblem, jwksProblem, parseClientMetadata, type ClientMetadata, type MetadataProblem } from './client-metadata.js';
export * from './sandbox.js';
export * from './webhooks.js';
export * from './wallets.js';
export * from './wallet-credential-types.js';
export * from './mail.js';
export * from './password-reset.js';
export * from './presentations.js';
export * from './actions.js';
export * from './assurance.js';
export * from './passkeys.js';
