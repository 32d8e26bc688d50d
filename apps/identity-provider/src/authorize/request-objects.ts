import { ZRequestObjectClaims } from '@svc/schemas';
import type { z } from 'zod';
import type { Application } from '../clients/application.js';
import type { ClientAssertions } from '../clients/client-assertions.js';
import { OAuthError } from '../errors.js';

export type RequestParameters = z.infer<typeof ZRequestObjectClaims>;

const invalidRequestObject = (reason: string) => new OAuthError('invalid_request_object', `The request object is not valid: ${reason}`);

/**
 * RFC 9101: the authorization request's parameters, read from a request object the client signed,
 * and from nothing else (§5: parameters outside it are ignored). A `client_id` inside it must be
 * the client that sent it (§5).
 */
export async function requestObjectParameters(assertions: ClientAssertions, app: Application, requestObject: string): Promise<RequestParameters> {
  let claims: unknown;
  try {
    claims = await assertions.verifyRequestObject(app, requestObject);
  } catch (err) {
    throw invalidRequestObject((err as Error).message);
  }
  const parsed = ZRequestObjectClaims.safeParse(claims);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidRequestObject(`${issue.path.join('.')} ${issue.message}`);
  }
  if (parsed.data.client_id !== undefined && parsed.data.client_id !== app.clientId) throw invalidRequestObject('its client_id is another client’s');
  return parsed.data;
}
