/**
 * Reading the console's forms: strings only (a JSON body, or odd parser output, may carry anything
 * else), checked with the API's own schemas, and path ids taken as the API takes them.
 */
import { NotFoundError, toFieldIssues, ValidationError } from '@svc/http';
import { isUuid, ZClientIdParams } from '@svc/schemas';
import type { Request } from 'express';
import type { z } from 'zod';

export type Form = Record<string, unknown>;

export const many = (v: unknown) => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
export const one = (v: unknown) => {
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first.trim() || undefined : undefined;
};
export const num = (v: unknown) => (one(v) === undefined ? undefined : Number(one(v)));
export const json = (v: unknown, field: string) => {
  try {
    return one(v) === undefined ? undefined : (JSON.parse(one(v)!) as unknown);
  } catch {
    throw new ValidationError([{ field: `body.${field}`, message: 'is not valid JSON' }]);
  }
};
/** A client_id from the path as the API takes one, or 404. */
export const clientIdParam = (req: Request) => {
  const parsed = ZClientIdParams.safeParse(req.params);
  if (!parsed.success || !/^[\x21-\x7E]+$/.test(parsed.data.client_id)) throw new NotFoundError('Not found', 'not_found');
  return parsed.data.client_id;
};

/** A UUID from the path, or 404 as for anything not found (never a database error). */
export const uuidParam = (req: Request, name: string) => {
  const value = String(req.params[name]);
  if (!isUuid(value)) throw new NotFoundError('Not found', 'not_found');
  return value;
};

/** The API's own schema, applied to what the form says. */
export function parsed<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ValidationError(toFieldIssues(result.error, 'body'));
  return result.data;
}

/** A refusal's fields and reasons, as the console lists them. */
export const problemsOf = (err: ValidationError) => err.details.map((d) => `${d.field.replace(/^body\./, '')}: ${d.message}`);
