import { z } from 'zod';

/**
 * The query grammar lives here, once: the operators, the lenses and the three query shapes below.
 * @svc/query-engine imports it and compiles queries against it, reporting the JSON path of an
 * offending node; the OpenAPI documents are generated from the same schemas.
 */
export const OPERATORS = ['startsWith', '==', '!=', '>', '>=', '<', '<=', 'in', 'notIn', 'contains', 'isDefined', 'matchRegex'] as const;
export type Operator = (typeof OPERATORS)[number];

/** The request envelope; the query inside is compiled (and so validated) by @svc/query-engine. */
export const ZQueryEvaluateRequest = z.object({
  query: z.record(z.string(), z.unknown(), { error: 'must be an object: {check}, {policy} or {projections}' }),
});

export const ZCheck = z.object({ claim: z.string(), operator: z.enum(OPERATORS), value: z.unknown().optional() }).meta({ id: 'Check' });

export interface PolicyShape {
  allOf?: (z.infer<typeof ZCheck> | PolicyShape)[];
  anyOf?: (z.infer<typeof ZCheck> | PolicyShape)[];
  not?: z.infer<typeof ZCheck> | PolicyShape;
}

export const ZPolicy: z.ZodType<PolicyShape> = z
  .object({
    get allOf() {
      return z.array(z.union([ZCheck, ZPolicy])).optional();
    },
    get anyOf() {
      return z.array(z.union([ZCheck, ZPolicy])).optional();
    },
    get not() {
      return z.union([ZCheck, ZPolicy]).optional();
    },
  })
  .meta({ id: 'Policy' });

export const ZLens = z.union([
  z.literal('at'),
  z.object({ at: z.union([z.string(), z.number().int().min(0)]) }),
  z.object({ pluck: z.string() }),
  z.object({ pick: z.array(z.string()) }),
]);

export const ZQuery = z
  .union([z.object({ check: ZCheck }), z.object({ policy: ZPolicy }), z.object({ projections: z.array(z.object({ claim: z.string(), lens: ZLens })) })])
  .meta({ id: 'Query' });

export const ZClaimUsed = z.object({
  path: z.string(),
  value: z.unknown(),
  credentialId: z.string().optional(),
  source: z.string().optional(),
});

export const ZPredicateResponse = z.object({
  type: z.literal('predicate'),
  passed: z.boolean(),
  evaluatedAt: z.string(),
  evidence: z.object({
    claimsUsed: z.array(ZClaimUsed),
    checkResults: z.array(z.object({ claim: z.string(), operator: z.string(), expectedValue: z.unknown(), actualValue: z.unknown(), passed: z.boolean() })),
  }),
  expiresAt: z.string().optional(),
});

export const ZProjectionResponse = z.object({
  type: z.literal('projection'),
  data: z.record(z.string(), z.unknown()),
  evaluatedAt: z.string(),
  claimsUsed: z.array(ZClaimUsed),
  expiresAt: z.string().optional(),
});

export const ZQueryResponse = z.discriminatedUnion('type', [ZPredicateResponse, ZProjectionResponse]);
