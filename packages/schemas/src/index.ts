export { checkAddress, toChecksumAddress, type AddressCheck } from './eip55.js';
export { ZEvmAddress, ZIsoDateTime, ZErrorBody } from './common.js';
export { ZLiveness, ZReadiness, type Liveness, type Readiness } from './health.js';
export { ZWalletVerification, ZAreaBError, type WalletVerification } from './wallet-verify.js';
export { SCOPES, ZScope, SCOPE_CATALOG, scopeDetail, withImplied, type Scope, type ScopeDetail } from './scopes.js';
