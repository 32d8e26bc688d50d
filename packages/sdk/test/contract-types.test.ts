import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import type * as Contract from '@svc/schemas';
import type * as Sdk from '../src/contract-types.js';

// Each type the SDK publishes accepts exactly what the contract's does, and back (type-checked by
// `npm run typecheck`, which covers this file): the generated file cannot drift into a lie.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: [
  Same<Sdk.AuthorizationList, Contract.AuthorizationList>,
  Same<Sdk.CreatedPresentationRequest, Contract.CreatedPresentationRequest>,
  Same<Sdk.OpenIdConfiguration, Contract.OpenIdConfiguration>,
  Same<Sdk.PresetError, Contract.PresetError>,
  Same<Sdk.PresetErrorCode, Contract.PresetErrorCode>,
  Same<Sdk.PresetInfo, Contract.PresetInfo>,
  Same<Sdk.PresetResult, Contract.PresetResult>,
  Same<Sdk.PresentablePreset, Contract.PresentablePreset>,
  Same<Sdk.PresentationResult, Contract.PresentationResult>,
  Same<Sdk.Proof, Contract.Proof>,
  Same<Sdk.ProofCheck, Contract.ProofCheck>,
  Same<Sdk.RevokeResponse, Contract.RevokeResponse>,
  Same<Sdk.ServiceConfiguration, Contract.ServiceConfiguration>,
  Same<Sdk.TokenResponse, Contract.TokenResponse>,
  Same<Sdk.UserInfo, Contract.UserInfo>,
  Same<Sdk.UserTokenResponse, Contract.UserTokenResponse>,
  Same<Sdk.VerifiableCredential, Contract.VerifiableCredential>,
  Same<Sdk.VerifyCredentialResponse, Contract.VerifyCredentialResponse>,
  Same<Sdk.WalletVerification, Contract.WalletVerification>,
  Same<Sdk.WebhookEventPayloads, Contract.WebhookEventPayloads>,
  Same<Sdk.WebhookEventType, Contract.WebhookEventType>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];

describe('the SDK’s own copy of the contract types', () => {
  it('is what scripts/contract-types.mjs generates from @svc/schemas today', () => {
    expect(same.every(Boolean)).toBe(true);
    const script = fileURLToPath(new URL('../scripts/contract-types.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
