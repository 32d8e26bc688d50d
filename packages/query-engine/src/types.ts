/** What the engine reads for one preset: the value and where it came from. */
export interface ClaimRecord {
  value: unknown;
  credentialId?: string;
  source?: string;
  /** ISO 8601; the earliest among the claims used becomes the result's expiresAt. */
  expiresAt?: string;
}

/** Looks up a preset's current value; undefined when the user has no such data. */
export type ClaimLookup = (preset: string) => ClaimRecord | undefined;

export interface ClaimUsed {
  path: string;
  value: unknown;
  credentialId?: string;
  source?: string;
}

export interface CheckResult {
  claim: string;
  operator: string;
  expectedValue: unknown;
  actualValue: unknown;
  passed: boolean;
}

export interface PredicateResult {
  type: 'predicate';
  passed: boolean;
  evaluatedAt: string;
  evidence: { claimsUsed: ClaimUsed[]; checkResults: CheckResult[] };
  expiresAt?: string;
}

export interface ProjectionResult {
  type: 'projection';
  data: Record<string, unknown>;
  evaluatedAt: string;
  claimsUsed: ClaimUsed[];
  expiresAt?: string;
}

export type QueryResult = PredicateResult | ProjectionResult;

export interface QueryLimits {
  /** Nesting of allOf/anyOf/not. */
  maxDepth: number;
  /** Checks, policies and projections together. */
  maxNodes: number;
  maxPatternLength: number;
  maxClaimLength: number;
}

export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 8, maxNodes: 64, maxPatternLength: 256, maxClaimLength: 200 };
