import type { RequestHandler } from 'express';
import { rawJsonBody } from '@svc/http';
import { invalidField } from '../../http/errors.js';
import type { Openid4vciDeps } from '../deps.js';
import { approvalEventOf, endApprovalCredentials, verifyEventSignature } from './approval-events.js';

/**
 * POST /authorization-server/events: the identity provider's wallet_approval.revoked and
 * .data_changed (Standard Webhooks), signed with `webhookSecret`: what was issued on the approval is revoked.
 */
export function approvalEventsHandler(deps: Openid4vciDeps, server: { organizationId: string; webhookSecret: string }): RequestHandler {
  const approvalDeps = { db: deps.db, cache: deps.store.cache, now: () => deps.clock.now(), organizationId: server.organizationId };
  return async (req, res) => {
    const headers = { id: req.get('webhook-id'), timestamp: req.get('webhook-timestamp'), signature: req.get('webhook-signature') };
    const body = rawJsonBody(req);
    if (headers.signature && !body) throw invalidField('body', 'must be the event as JSON (Content-Type: application/json)');
    verifyEventSignature(server.webhookSecret, headers, body ?? Buffer.alloc(0), deps.clock.now());
    const event = approvalEventOf(req.body);
    if (event) {
      const revoked = await endApprovalCredentials(approvalDeps, event.authorizationId, event.configurationIds);
      deps.logger.info({ authorization_id: event.authorizationId, revoked }, 'credentials on a wallet approval revoked at the identity provider’s word');
    }
    res.status(204).end();
  };
}
