import { parseClaim, readPath, type ClaimPath } from './claim-path.js';
import { QueryError } from './errors.js';
import { compileTest, OPERATORS, type Operator } from './operators.js';
import { compileLens, type Lens } from './projections.js';
import {
  DEFAULT_LIMITS,
  type CheckResult,
  type ClaimLookup,
  type ClaimUsed,
  type PredicateResult,
  type ProjectionResult,
  type QueryLimits,
  type QueryResult,
} from './types.js';

/** Per-evaluation state: what was read and what was checked. */
interface Run {
  lookup: ClaimLookup;
  used: Map<string, ClaimUsed>;
  checks: CheckResult[];
  expiresAt: string | undefined;
  withEvidence: boolean;
}

type Node = (run: Run) => boolean;

export interface CompiledQuery {
  type: 'predicate' | 'projection';
  /** Every preset the query names, in short-circuited branches too: scope checks cover them all. */
  presets: string[];
  /** Every claim string the query names. */
  claims: string[];
  evaluate(lookup: ClaimLookup, now?: Date, options?: { evidence?: boolean }): QueryResult;
}

interface Ctx {
  limits: QueryLimits;
  nodes: number;
  claims: Map<string, ClaimPath>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(obj: Record<string, unknown>, allowed: string[], at: string): void {
  for (const key of Object.keys(obj)) if (!allowed.includes(key)) throw new QueryError(`${at}.${key}`, `is not allowed here (allowed: ${allowed.join(', ')})`);
}

function count(ctx: Ctx, at: string): void {
  if (++ctx.nodes > ctx.limits.maxNodes) throw new QueryError(at, `the query has more than ${ctx.limits.maxNodes} nodes`);
}

function claim(ctx: Ctx, raw: unknown, at: string): ClaimPath {
  const parsed = parseClaim(raw, at, ctx.limits.maxClaimLength);
  ctx.claims.set(parsed.raw, parsed);
  return parsed;
}

/** Reads a claim for this run, recording it (once) as used when the user has the preset. */
function read(run: Run, path: ClaimPath): unknown {
  const record = run.lookup(path.preset);
  if (!record) return undefined;
  const value = path.segments.length === 0 ? record.value : readPath(record.value, path.segments);
  if (!run.used.has(path.raw)) {
    const used: ClaimUsed = { path: path.raw, value: value === undefined ? null : value };
    if (record.credentialId) used.credentialId = record.credentialId;
    if (record.source) used.source = record.source;
    run.used.set(path.raw, used);
    if (record.expiresAt && (!run.expiresAt || record.expiresAt < run.expiresAt)) run.expiresAt = record.expiresAt;
  }
  return value;
}

function compileCheck(ctx: Ctx, node: unknown, at: string): Node {
  if (!isObject(node)) throw new QueryError(at, 'must be an object {claim, operator, value}');
  onlyKeys(node, ['claim', 'operator', 'value'], at);
  count(ctx, at);
  const path = claim(ctx, node.claim, `${at}.claim`);
  const operator = node.operator;
  if (typeof operator !== 'string' || !(OPERATORS as readonly string[]).includes(operator)) {
    throw new QueryError(`${at}.operator`, `must be one of ${OPERATORS.join(', ')}`);
  }
  const hasValue = Object.hasOwn(node, 'value');
  const test = compileTest(operator as Operator, node.value, hasValue, `${at}.value`, ctx.limits);
  const expected = hasValue ? node.value : operator === 'isDefined' ? true : null;
  return (run) => {
    const actual = read(run, path);
    const passed = test(actual);
    if (run.withEvidence) run.checks.push({ claim: path.raw, operator, expectedValue: expected, actualValue: actual === undefined ? null : actual, passed });
    return passed;
  };
}

/** An element of allOf/anyOf, or `not`: a check (bare or `{check}`) or a policy (bare or `{policy}`). */
function compileElement(ctx: Ctx, node: unknown, at: string, depth: number): Node {
  if (!isObject(node)) throw new QueryError(at, 'must be a check or a policy object');
  if (Object.hasOwn(node, 'check')) {
    onlyKeys(node, ['check'], at);
    return compileCheck(ctx, node.check, `${at}.check`);
  }
  if (Object.hasOwn(node, 'policy')) {
    onlyKeys(node, ['policy'], at);
    return compilePolicy(ctx, node.policy, `${at}.policy`, depth + 1);
  }
  if (Object.hasOwn(node, 'claim')) return compileCheck(ctx, node, at);
  return compilePolicy(ctx, node, at, depth + 1);
}

function compilePolicy(ctx: Ctx, node: unknown, at: string, depth: number): Node {
  if (!isObject(node)) throw new QueryError(at, 'must be an object with allOf, anyOf and/or not');
  if (depth > ctx.limits.maxDepth) throw new QueryError(at, `policies nest deeper than ${ctx.limits.maxDepth} levels`);
  onlyKeys(node, ['allOf', 'anyOf', 'not'], at);
  count(ctx, at);
  const parts: Node[] = [];
  for (const key of ['allOf', 'anyOf'] as const) {
    if (!Object.hasOwn(node, key)) continue;
    const list = node[key];
    if (!Array.isArray(list)) throw new QueryError(`${at}.${key}`, 'must be an array');
    const children = list.map((child, i) => compileElement(ctx, child, `${at}.${key}[${i}]`, depth));
    // allOf [] is true and anyOf [] is false, as `every` and `some` define them.
    parts.push(key === 'allOf' ? allOf(children) : anyOf(children));
  }
  if (Object.hasOwn(node, 'not')) {
    const inner = compileElement(ctx, node.not, `${at}.not`, depth);
    parts.push((run) => !inner(run));
  }
  if (parts.length === 0) throw new QueryError(at, 'must have at least one of allOf, anyOf, not');
  // Every present part must hold; evaluation stops at the first that does not.
  return parts.length === 1 ? parts[0]! : allOf(parts);
}

// Plain loops: these run for every node of every evaluation.
function allOf(nodes: Node[]): Node {
  return (run) => {
    for (let i = 0; i < nodes.length; i++) if (!nodes[i]!(run)) return false;
    return true;
  };
}

function anyOf(nodes: Node[]): Node {
  return (run) => {
    for (let i = 0; i < nodes.length; i++) if (nodes[i]!(run)) return true;
    return false;
  };
}

/** `now` rendered once per distinct instant: callers evaluating in bulk pass the same Date. */
function isoClock() {
  let last: Date | undefined;
  let text = '';
  return (now: Date) => {
    if (now !== last) {
      last = now;
      text = now.toISOString();
    }
    return text;
  };
}

function newRun(lookup: ClaimLookup, withEvidence: boolean): Run {
  return { lookup, used: new Map(), checks: [], expiresAt: undefined, withEvidence };
}

/**
 * Validates a query once and returns an evaluator built of closures. Malformed queries throw a
 * QueryError naming the JSON path of the offending node (`query.policy.allOf[2].operator`).
 */
export function compileQuery(query: unknown, limits: QueryLimits = DEFAULT_LIMITS): CompiledQuery {
  const ctx: Ctx = { limits, nodes: 0, claims: new Map() };
  if (!isObject(query)) throw new QueryError('query', 'must be an object with one of check, policy or projections');
  const shapes = ['check', 'policy', 'projections'].filter((k) => Object.hasOwn(query, k));
  if (shapes.length !== 1) throw new QueryError('query', 'must have exactly one of check, policy or projections');
  onlyKeys(query, ['check', 'policy', 'projections'], 'query');
  const iso = isoClock();
  const meta = () => ({ presets: [...new Set([...ctx.claims.values()].map((c) => c.preset))], claims: [...ctx.claims.keys()] });

  if (shapes[0] === 'projections') {
    const list = query.projections;
    if (!Array.isArray(list) || list.length === 0) throw new QueryError('query.projections', 'must be a non-empty array');
    const projections = list.map((p, i) => {
      const at = `query.projections[${i}]`;
      if (!isObject(p)) throw new QueryError(at, 'must be an object {claim, lens}');
      onlyKeys(p, ['claim', 'lens'], at);
      count(ctx, at);
      const path = parseClaim(p.claim, `${at}.claim`, limits.maxClaimLength);
      if (ctx.claims.has(path.raw)) throw new QueryError(`${at}.claim`, `"${path.raw}" is projected twice`);
      ctx.claims.set(path.raw, path);
      const lens: Lens = compileLens(p.lens, `${at}.lens`);
      return { path, lens, at: `${at}.lens` };
    });
    return {
      type: 'projection',
      ...meta(),
      evaluate: (lookup, now = new Date()) => {
        const run = newRun(lookup, true);
        const data: Record<string, unknown> = {};
        for (const { path, lens, at } of projections) {
          const value = read(run, path);
          data[path.raw] = value === undefined ? null : lens(value, at);
        }
        const result: ProjectionResult = { type: 'projection', data, evaluatedAt: iso(now), claimsUsed: [...run.used.values()] };
        if (run.expiresAt) result.expiresAt = run.expiresAt;
        return result;
      },
    };
  }

  const root = shapes[0] === 'check' ? compileCheck(ctx, query.check, 'query.check') : compilePolicy(ctx, query.policy, 'query.policy', 1);
  return {
    type: 'predicate',
    ...meta(),
    evaluate: (lookup, now = new Date(), options) => {
      const run = newRun(lookup, options?.evidence !== false);
      const passed = root(run);
      const result: PredicateResult = {
        type: 'predicate',
        passed,
        evaluatedAt: iso(now),
        evidence: { claimsUsed: [...run.used.values()], checkResults: run.checks },
      };
      if (run.expiresAt) result.expiresAt = run.expiresAt;
      return result;
    },
  };
}
