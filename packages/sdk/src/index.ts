export { createPkce, codeChallenge, randomState, type Pkce } from './pkce.js';
export { IdentityClient, type IdentityClientOptions, type AuthorizationUrlInput, type Query, type PredicateResult, type ProjectionResult } from './identity.js';
export { WalletVerifyClient, type RateLimitState } from './wallet-verify.js';
export {
  CredentialIssuerClient,
  type IssuedCredentialSummary,
  type IssueOptions,
  type Problem,
  type StatusList,
  type Verification,
  type VerifyOptions,
} from './credential-issuer.js';
export type {
  DcqlQuery,
  PresentationCheck,
  PresentationError,
  PresentationFormat,
  PresentationOutcome,
  PresentationRequestInput,
  PresentedPreset,
  PresentedPresetValues,
} from './presentations.js';
export {
  SvcApiError,
  OAuthApiError,
  ValidationApiError,
  PresetApiError,
  InsufficientUserAuthenticationError,
  RateLimitApiError,
  MaxVerificationsReachedError,
  NotUniqueHumanError,
  toApiError,
} from './errors.js';
export type { TransportOptions } from './http.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type KnownWebhookEvent, type VerifyWebhookOptions } from './webhooks.js';
export type {
  PresetResult,
  PresetError,
  PresetInfo,
  Proof,
  ProofCheck,
  TokenResponse,
  UserTokenResponse,
  UserInfo,
  RevokeResponse,
  WalletVerification,
  VerifiableCredential,
  CredentialOfferResponse,
  CreatedPresentationRequest,
  PresentablePreset,
  WebhookEventType,
  WebhookEventPayloads,
} from './contract-types.js';
