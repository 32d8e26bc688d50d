import { z } from 'zod';
import { ZErrorBody } from './common.js';

// One human, one action: actions an organization counts per person, and the proofs of them.

/** How often a person may act again: the count starts anew each UTC day, ISO week, month, or never. */
export const ACTION_PERIODS = ['day', 'week', 'month', 'never'] as const;
export type ActionPeriod = (typeof ACTION_PERIODS)[number];

/** An action's name as the integrator chooses it (`vote-2026`, `airdrop.claim`): part of every URL about it. */
export const ZActionName = z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'must be 1 to 64 of a-z 0-9 _ . - , starting with a letter or digit');

const ZMaxPerPerson = z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000');
const ZPeriod = z.enum(ACTION_PERIODS, { message: `must be one of: ${ACTION_PERIODS.join(', ')}` });
const ZActionDescription = z.string().trim().max(200, 'must be at most 200 characters');

export const ZCreateActionRequest = z.strictObject({
  action: ZActionName,
  description: ZActionDescription.optional(),
  max_per_person: ZMaxPerPerson.default(1),
  period: ZPeriod.default('never'),
  requires_palm_verification: z.boolean().default(true),
});
/** The name stays: it is what the nullifiers are made from. */
export const ZUpdateActionRequest = z
  .strictObject({
    description: ZActionDescription.nullable(),
    max_per_person: ZMaxPerPerson,
    period: ZPeriod,
    requires_palm_verification: z.boolean(),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'name at least one of description, max_per_person, period, requires_palm_verification');
export const ZActionParams = z.object({ action: ZActionName });

export const ZAction = z.object({
  action: z.string(),
  description: z.string().nullable(),
  max_per_person: z.number().int(),
  period: z.enum(ACTION_PERIODS),
  requires_palm_verification: z.boolean(),
  created_at: z.string(),
});
export const ZActionList = z.object({ items: z.array(ZAction) });

/** The signal a proof is bound to (a vote's choice, a wallet address): only its hash is kept. */
export const ZProofRequest = z
  .strictObject({ signal: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional() })
  .default({});

/** A nullifier as this service makes them: `nul_` and 43 base64url characters. */
export const ZNullifier = z.string().regex(/^nul_[A-Za-z0-9_-]{43}$/, 'must be a nullifier (nul_ and 43 base64url characters)');
export const ZProofParams = ZActionParams.extend({ nullifier: ZNullifier });

export const ZProof = z.object({
  action: z.string(),
  /** The same for this person, action and period; unlinkable to any other action, organization or `sub`. */
  nullifier: z.string(),
  /** SHA-256 of the signal's UTF-8 bytes, lowercase hex; absent without a signal. */
  signal_hash: z.string().optional(),
  /** Proofs of this nullifier so far, this one included. */
  count: z.number().int(),
  max_per_person: z.number().int(),
  proved_at: z.string(),
});
/** What the integrator's backend reads of a nullifier it was handed. */
export const ZProofCheck = z.object({
  nullifier: z.string(),
  count: z.number().int(),
  /** The latest proof. */
  proved_at: z.string(),
  /** The latest proof's signal hash, when it had a signal. */
  signal_hash: z.string().optional(),
});
/** 409 max_verifications_reached: the person has proved this action as often as it allows this period. */
export const ZProofRefused = ZErrorBody.extend({ nullifier: z.string() });

export type Action = z.infer<typeof ZAction>;
export type Proof = z.infer<typeof ZProof>;
export type ProofCheck = z.infer<typeof ZProofCheck>;

/** An action as the database keeps it, as much of it as its view reads. */
export interface StoredAction {
  name: string;
  description: string | null;
  maxPerPerson: number;
  period: string;
  requiresPalmVerification: boolean;
  createdAt: Date;
}

/** What the database keeps of a new action, from its registration (the API's and the admin CLI's alike). */
export function storedActionOf(body: z.output<typeof ZCreateActionRequest>): Omit<StoredAction, 'createdAt'> {
  return {
    name: body.action,
    description: body.description ?? null,
    maxPerPerson: body.max_per_person,
    period: body.period,
    requiresPalmVerification: body.requires_palm_verification,
  };
}

/** An action as the API and the admin CLI show it. */
export function actionView(row: StoredAction): Action {
  return {
    action: row.name,
    description: row.description,
    max_per_person: row.maxPerPerson,
    period: row.period as ActionPeriod,
    requires_palm_verification: row.requiresPalmVerification,
    created_at: row.createdAt.toISOString(),
  };
}
