import type { ApiSpec } from '@svc/http';
import {
  ZCreateWebhookRequest,
  ZUpdateWebhookRequest,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookDeliveryParams,
  ZWebhookDeliveryQuery,
  ZWebhookEndpoint,
  ZWebhookEndpointList,
  ZWebhookEndpointWithSecret,
  ZWebhookParams,
  ZWebhookTestResponse,
} from '@svc/schemas';
import { developer, developerRefused as refused, developerWriteRefused as writeRefused } from '../openapi-responses.js';

const NOT_FOUND = 'No such webhook endpoint in your organization';

/** An organization's webhook endpoints and their deliveries (docs/webhooks.md). */
export const WEBHOOK_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/v2/developer/webhooks',
    tag: 'Webhooks',
    summary: 'The organization’s webhook endpoints',
    security: developer,
    responses: {
      200: { description: 'Every endpoint, oldest first (never its secret)', schema: ZWebhookEndpointList },
      ...refused({ 404: 'Not a member of any organization' }),
    },
  },
  {
    method: 'post',
    path: '/v2/developer/webhooks',
    tag: 'Webhooks',
    summary: 'Add an endpoint: an https URL and the event types it wants; its signing secret (whsec_…) is shown this once',
    security: developer,
    body: ZCreateWebhookRequest,
    responses: {
      201: { description: 'The endpoint with its secret, shown this once', schema: ZWebhookEndpointWithSecret },
      ...writeRefused({ 404: 'Not a member of any organization', 409: 'The organization has 20 endpoints already' }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/webhooks/{webhook_id}',
    tag: 'Webhooks',
    summary: 'One endpoint',
    security: developer,
    params: ZWebhookParams,
    responses: { 200: { description: 'The endpoint', schema: ZWebhookEndpoint }, ...refused({ 400: 'Invalid request', 404: NOT_FOUND }) },
  },
  {
    method: 'patch',
    path: '/v2/developer/webhooks/{webhook_id}',
    tag: 'Webhooks',
    summary: 'Change an endpoint’s URL, event types or description, or disable and enable it (enabling starts its failure count afresh)',
    security: developer,
    params: ZWebhookParams,
    body: ZUpdateWebhookRequest,
    responses: { 200: { description: 'The endpoint as it is now', schema: ZWebhookEndpoint }, ...writeRefused({ 404: NOT_FOUND }) },
  },
  {
    method: 'delete',
    path: '/v2/developer/webhooks/{webhook_id}',
    tag: 'Webhooks',
    summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
    security: developer,
    params: ZWebhookParams,
    responses: { 204: { description: 'Deleted' }, ...writeRefused({ 404: NOT_FOUND }) },
  },
  {
    method: 'post',
    path: '/v2/developer/webhooks/{webhook_id}/rotate-secret',
    tag: 'Webhooks',
    summary: 'A new signing secret, shown once; for 24 hours every delivery carries a signature with each, so receivers can move over',
    security: developer,
    params: ZWebhookParams,
    responses: { 200: { description: 'The endpoint with its new secret', schema: ZWebhookEndpointWithSecret }, ...writeRefused({ 404: NOT_FOUND }) },
  },
  {
    method: 'post',
    path: '/v2/developer/webhooks/{webhook_id}/test',
    tag: 'Webhooks',
    summary: 'Send a webhook.test event to this endpoint, delivered (and retried) as every event is',
    security: developer,
    params: ZWebhookParams,
    responses: {
      202: { description: 'The event is written; its delivery is in the log', schema: ZWebhookTestResponse },
      ...writeRefused({ 404: NOT_FOUND, 409: 'The endpoint is disabled' }),
    },
  },
  {
    method: 'get',
    path: '/v2/developer/webhooks/{webhook_id}/deliveries',
    tag: 'Webhooks',
    summary: 'The delivery log, newest first: status, attempts, the last response’s status and time, the next attempt',
    security: developer,
    params: ZWebhookParams,
    query: ZWebhookDeliveryQuery,
    responses: { 200: { description: 'The deliveries', schema: ZWebhookDeliveryList }, ...refused({ 400: 'Invalid request', 404: NOT_FOUND }) },
  },
  {
    method: 'post',
    path: '/v2/developer/webhooks/{webhook_id}/deliveries/{delivery_id}/retry',
    tag: 'Webhooks',
    summary: 'Try a delivery again now (a failed one gets one more attempt)',
    security: developer,
    params: ZWebhookDeliveryParams,
    responses: {
      200: { description: 'The delivery, due now', schema: ZWebhookDelivery },
      ...writeRefused({ 404: 'No such webhook endpoint, or no such delivery of it', 409: 'The delivery already succeeded' }),
    },
  },
];
