import { z } from 'zod';
import { checkAddress } from './eip55.js';

/** A wallet address that must already be in EIP-55 form; the error says what is wrong. */
export const ZEvmAddress = z.string().superRefine((value, ctx) => {
  const result = checkAddress(value);
  if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its canonical text form: what a uuid column accepts (anything else would make the query fail). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export const ZIsoDateTime = z.string().datetime({ offset: true });

/** Body of every non-spec-specific error: `{error, error_description, details?}`. */
export const ZErrorBody = z
  .object({
    error: z.string(),
    error_description: z.string().optional(),
    /** Validation failures: each offending field and why. */
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    /** The id of the request, to quote to the operator (also in X-Request-Id); a 500 reveals nothing else. */
    request_id: z.string().optional(),
  })
  .meta({ id: 'Error' });
