import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors.js';

export interface RequestSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  headers?: z.ZodType;
}

type Parsed<S extends RequestSchemas> = {
  [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never;
};

export type ValidatedHandler<S extends RequestSchemas> = (input: Parsed<S>, req: Request, res: Response) => unknown;

/**
 * Wraps a handler so it only ever sees parsed input. Every part is checked before the handler
 * runs, and all offending fields are reported together in one 400. Guards given before the handler
 * (route middleware that find out who calls and leave it in `res.locals`) run after the input is
 * checked, in order: a malformed request is answered 400 whoever sends it, as when a handler
 * called its guard first thing.
 */
export function handle<S extends RequestSchemas>(schemas: S, handler: ValidatedHandler<S>): RequestHandler;
export function handle<S extends RequestSchemas>(schemas: S, guard: RequestHandler, handler: ValidatedHandler<S>): RequestHandler;
export function handle<S extends RequestSchemas>(schemas: S, guard: RequestHandler, second: RequestHandler, handler: ValidatedHandler<S>): RequestHandler;
export function handle<S extends RequestSchemas>(
  schemas: S,
  guard: RequestHandler,
  second: RequestHandler,
  third: RequestHandler,
  handler: ValidatedHandler<S>,
): RequestHandler;
export function handle<S extends RequestSchemas>(schemas: S, ...chain: (RequestHandler | ValidatedHandler<S>)[]): RequestHandler {
  const parts = Object.entries(schemas) as [keyof RequestSchemas, z.ZodType][];
  const guards = chain.slice(0, -1) as RequestHandler[];
  const handler = chain[chain.length - 1] as ValidatedHandler<S>;
  return async (req: Request, res: Response, next: NextFunction) => {
    const input: Record<string, unknown> = {};
    const issues: FieldIssue[] = [];
    for (const [part, schema] of parts) {
      const result = schema.safeParse(req[part] ?? (part === 'body' ? undefined : {}));
      if (result.success) input[part] = result.data;
      else issues.push(...toFieldIssues(result.error, part));
    }
    if (issues.length > 0) return next(new ValidationError(issues));
    for (const guard of guards) if (!(await passes(guard, req, res))) return;
    await handler(input as Parsed<S>, req, res);
  };
}

/**
 * Runs a guard to its end: true when it let the request on (`next()`), false when it answered
 * itself; what it threw or passed to `next(err)` is thrown on, to the error handler.
 */
async function passes(guard: RequestHandler, req: Request, res: Response): Promise<boolean> {
  let outcome: { err: unknown } | undefined;
  await guard(req, res, (err?: unknown) => {
    outcome = { err };
  });
  if (outcome?.err !== undefined) throw outcome.err;
  return outcome !== undefined;
}

export function toFieldIssues(error: z.ZodError, prefix?: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    field: formatPath(prefix ? [prefix, ...issue.path] : issue.path) || '(root)',
    message: issue.message,
  }));
}

/** `["body", "tokens", 1]` → `body.tokens[1]` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}
