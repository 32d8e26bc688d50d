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
 * runs, and all offending fields are reported together in one 400.
 */
export function handle<S extends RequestSchemas>(schemas: S, handler: ValidatedHandler<S>): RequestHandler {
  const parts = Object.entries(schemas) as [keyof RequestSchemas, z.ZodType][];
  return async (req: Request, res: Response, next: NextFunction) => {
    const input: Record<string, unknown> = {};
    const issues: FieldIssue[] = [];
    for (const [part, schema] of parts) {
      const result = schema.safeParse(req[part] ?? (part === 'body' ? undefined : {}));
      if (result.success) input[part] = result.data;
      else issues.push(...toFieldIssues(result.error, part));
    }
    if (issues.length > 0) return next(new ValidationError(issues));
    await handler(input as Parsed<S>, req, res);
  };
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
