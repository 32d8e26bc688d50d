import { z } from 'zod';

export const ZLiveness = z.object({
  status: z.literal('ok'),
  uptime: z.number(),
  version: z.string(),
  commit: z.string().nullable(),
  timestamp: z.string(),
});

export const ZReadiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.array(
    z.object({
      name: z.string(),
      ok: z.boolean(),
      details: z.record(z.string(), z.union([z.null(), z.string(), z.number(), z.boolean()])).optional(),
    }),
  ),
});

export type Liveness = z.infer<typeof ZLiveness>;
export type Readiness = z.infer<typeof ZReadiness>;
