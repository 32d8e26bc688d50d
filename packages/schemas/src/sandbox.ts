import { z } from 'zod';
import { ZAcr } from './assurance.js';
import { ZEvmAddress } from './common.js';

// The sandbox's test data (404 in production; docs/sandbox.md).

/** How a test user's verification behind a preset stands, when not simply valid. */
export const TEST_PRESET_STATUSES = ['pending', 'expired', 'revoked'] as const;

export const ZCreateTestUserRequest = z.strictObject({
  email: z.string().trim().toLowerCase().max(320).email('must be an email address').optional(),
  password: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  wallet_address: ZEvmAddress.optional(),
  palm_verified: z.boolean().optional(),
  /** Preset name → value, checked as `admin user:credential` checks claims. */
  presets: z.record(z.string().max(64), z.unknown()).default({}),
  statuses: z.record(z.string().max(64), z.enum(TEST_PRESET_STATUSES)).default({}),
});

export const ZTestUser = z.object({
  user_id: z.string(),
  email: z.string(),
  wallet_address: z.string().nullable(),
  palm_verified: z.boolean(),
  /** Each preset given, with how its verification stands. */
  presets: z.record(z.string(), z.enum(['valid', ...TEST_PRESET_STATUSES])),
  created_at: z.string(),
});
/** `password`: the one given, or one made up; shown this once. */
export const ZCreatedTestUser = ZTestUser.extend({ password: z.string() });
export const ZTestUserList = z.object({ items: z.array(ZTestUser) });
export const ZTestUserParams = z.object({ user_id: z.string().uuid('must be a UUID') });

export const ZCreateTestAuthorizationRequest = z
  .strictObject({
    client_id: z.string().min(1).max(100),
    user_id: z.string().uuid('must be a UUID'),
    /** Space-separated, as in /oauth/authorize; or `scopes`. */
    scope: z.string().min(1).max(2000).optional(),
    /** The same as an array, as applications list their scopes; or `scope`. */
    scopes: z
      .array(z.string().regex(/^\S{1,200}$/, 'must be one scope, without spaces'))
      .min(1)
      .max(100)
      .optional(),
    redirect_uri: z.string().min(1).max(2000),
    code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url S256 challenge (43 characters)'),
    code_challenge_method: z.literal('S256').default('S256'),
    state: z.string().max(500).optional(),
    nonce: z.string().max(500).optional(),
    /** How the test user signed in (pwd, phr, phrh: a password, a passkey, a hardware passkey), to try step-up: pwd by default. */
    acr: ZAcr.default('pwd'),
    /** How long ago, in seconds, to try max_age: 0 by default (just now). */
    signed_in_seconds_ago: z.number().int().min(0, 'must be at least 0').max(86_400, 'must be at most 86400').default(0),
  })
  .superRefine((body, ctx) => {
    if ((body.scope === undefined) === (body.scopes === undefined))
      ctx.addIssue({ code: 'custom', path: ['scope'], message: 'give exactly one of scope (a space-separated string) or scopes (an array)' });
  });

export const ZAuthorizationIdParams = z.object({ authorization_id: z.string().uuid('must be a UUID') });
export const ZDataWindowEnded = z.object({ authorization_id: z.string(), data_window_ended_at: z.string() });
export const ZExpiredAccessToken = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expired_at: z.string() });
