import type { RequestHandler } from 'express';
import { rawJsonBody } from '@svc/http';
import { invalidField } from '../../http/errors.js';
import type { Openid4vciDeps } from '../deps.js';
import { approvalEventOf, endApprovalCredentials, verifyEventSignature } from './approval-events.js';

/** The guard of the approval events: signed by the identity provider with `webhookSecret` (Standard Webhooks), recently. */
export function requireIdentityProviderSignature(deps: Pick<Openid4vciDeps, 'clock'>, webhookSecret: string): RequestHandler {
  return (req, _res, next) => {
    const headers = { id: req.get('webhook-id'), timestamp: req.get('webhook-timestamp'), signature: req.get('webhook-signature') };
    const body = rawJsonBody(req);
    if (headers.signature && !body) throw invalidField('body', 'must be the event as JSON (Content-Type: application/json)');
    verifyEventSignature(webhookSecret, headers, body ?? Buffer.alloc(0), deps.clock.now());
    next();
  };
}

/**
 * POST /authorization-server/events, after requireIdentityProviderSignature: the identity
 * provider's wallet_approval.revoked and .data_changed: what was issued on the approval is revoked.
 */
export function approvalEventsHandler(deps: Openid4vciDeps, organizationId: string): RequestHandler {
  const approvalDeps = { db: deps.db, cache: deps.store.cache, now: () => deps.clock.now(), organizationId };
  return async (req, res) => {
    const event = approvalEventOf(req.body);
    if (event) {
      const revoked = await endApprovalCredentials(approvalDeps, event.authorizationId, event.configurationIds);
      deps.logger.info({ authorization_id: event.authorizationId, revoked }, 'credentials on a wallet approval revoked at the identity provider’s word');
    }
    res.status(204).end();
  };
}
