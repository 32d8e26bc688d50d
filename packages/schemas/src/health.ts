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

/** `GET /`: what this service is and where to read about it. */
export const ZServiceIndex = z.object({
  title: z.string(),
  description: z.string(),
  version: z.string(),
  links: z.object({ docs: z.string(), openapi: z.string(), health: z.string(), ready: z.string() }),
});
