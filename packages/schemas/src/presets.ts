import { z } from 'zod';
import { SCOPES } from './scopes.js';

/** A name as a client sends it: unknown names are answered per item (E4044), not refused. */
export const ZPresetNameInput = z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

export const ZPresetParams = z.object({ preset_name: ZPresetNameInput });

export const MAX_BATCH_PRESETS = 50;

export const ZPresetBatchRequest = z.object({
  presets: z.array(ZPresetNameInput).min(1, 'must name at least one preset').max(MAX_BATCH_PRESETS, `must name at most ${MAX_BATCH_PRESETS} presets`),
});

export const PRESET_ERROR_CODES = ['E4003', 'E4004', 'E4010', 'E4011', 'E4041', 'E4042', 'E4044'] as const;
export type PresetErrorCode = (typeof PRESET_ERROR_CODES)[number];

export const ZPresetError = z
  .object({
    error: z.string(),
    error_code: z.enum(PRESET_ERROR_CODES),
    error_description: z.string(),
    error_subcode: z.string().optional(),
    context: z.record(z.string(), z.union([z.null(), z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
    /** On an error answer (not on a batch item): the id to quote to the operator. */
    request_id: z.string().optional(),
  })
  .meta({ id: 'PresetError' });

export const ZPresetResult = z
  .object({
    preset: z.string(),
    value: z.unknown(),
    status: z.enum(['valid', 'pending', 'expired', 'unavailable']),
    expires_at: z.string(),
    verified_at: z.string().optional(),
    evidence: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'PresetResult' });

export const ZPresetBatchResponse = z.object({
  results: z.array(ZPresetResult),
  errors: z.array(z.object({ preset: z.string(), error: ZPresetError })),
});

export const PRESET_TYPES = ['string', 'number', 'boolean', 'date', 'datetime', 'integer', 'array', 'enum'] as const;

export const ZPresetInfo = z
  .object({
    name: z.string(),
    scope: z.enum(SCOPES),
    category: z.enum(['identity', 'kyc', 'financial', 'profile']),
    description: z.string(),
    consentText: z.string(),
    type: z.enum(PRESET_TYPES),
    sensitivity: z.enum(['low', 'medium', 'high', 'critical']),
    derived: z.boolean(),
    parentField: z.string().optional(),
    /** Beyond the spec: the value's exact form (ISO dates, ISO 3166-1 alpha-2, USD amounts, …). */
    format: z.string(),
    enumValues: z.array(z.string()).optional(),
  })
  .meta({ id: 'PresetInfo' });

export const ZPresetList = z.object({ presets: z.array(ZPresetInfo) });

export type PresetError = z.infer<typeof ZPresetError>;
export type PresetResult = z.infer<typeof ZPresetResult>;
export type PresetInfo = z.infer<typeof ZPresetInfo>;
