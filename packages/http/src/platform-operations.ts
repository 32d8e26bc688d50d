import { ZErrorBody, ZLiveness, ZReadiness, ZServiceIndex } from '@svc/schemas';
import { z } from 'zod';
import type { OperationSpec, ResponseSpec } from './openapi.js';

/** Error answers by status for operation specs: the generic `{error, error_description, details?}` unless another body is given. */
export function errorResponses(statuses: Record<number, string>, schema: z.ZodType = ZErrorBody): Record<number, ResponseSpec> {
  return Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, schema }]));
}

/** The operations every service serves: probes, metrics and its own documentation. */
export const PLATFORM_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/',
    tag: 'Platform',
    summary: 'What this service is, and where its documentation is',
    description: 'JSON for API callers; a short page for a browser (Accept: text/html).',
    responses: {
      200: { description: 'The service', schema: ZServiceIndex, alternatives: [{ contentType: 'text/html', schema: z.string() }] },
    },
    examples: [
      {
        summary: 'the service’s name and links',
        status: 200,
        response: {
          title: 'Wallet verify',
          description: 'Whether a wallet address belongs to a unique, palm-verified human. …',
          version: '0.1.0',
          links: { docs: '/docs', openapi: '/openapi.json', health: '/health', ready: '/ready' },
        },
      },
    ],
  },
  {
    method: 'get',
    path: '/health',
    tag: 'Platform',
    summary: 'Liveness: the process answers',
    responses: { 200: { description: 'Alive', schema: ZLiveness } },
    examples: [
      { summary: 'liveness', status: 200, response: { status: 'ok', uptime: 27.382, version: '0.1.0', commit: null, timestamp: '2026-11-25T02:32:36.461Z' } },
    ],
  },
  {
    method: 'get',
    path: '/ready',
    tag: 'Platform',
    summary: 'Readiness: PostgreSQL and Redis answer',
    responses: { 200: { description: 'Ready', schema: ZReadiness }, 503: { description: 'Not ready; each check says why', schema: ZReadiness } },
    examples: [
      {
        summary: 'readiness, each check',
        status: 200,
        // Every service checks PostgreSQL and Redis; some add checks of their own (a signing key, say).
        response: {
          status: 'ready',
          checks: [
            { name: 'database', ok: true, details: { latency_ms: 4 } },
            { name: 'redis', ok: true, details: { latency_ms: 3, mode: 'redis' } },
          ],
        },
      },
    ],
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'Platform',
    summary: 'Prometheus metrics (text format)',
    description: 'Requests by route template and status with latency histograms, rate-limit rejections, and the service’s own counters.',
    security: [[], ['metricsToken']],
    responses: {
      200: { description: 'Metrics', schema: z.string(), contentType: 'text/plain; version=0.0.4' },
      ...errorResponses({ 401: 'METRICS_TOKEN is configured and was not presented' }),
    },
    examples: [
      {
        summary: 'Prometheus metrics (add -H "Authorization: Bearer $METRICS_TOKEN" when it is set)',
        status: 200,
        response:
          '# HELP http_requests_total HTTP requests answered, by route template and status\n# TYPE http_requests_total counter\nhttp_requests_total{method="GET",route="/health",status="200",service="wallet-verify"} 3\n…\n',
      },
    ],
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Platform',
    summary: 'This document (OpenAPI 3.1)',
    responses: { 200: { description: 'The document', schema: z.record(z.string(), z.unknown()) } },
    examples: [
      {
        summary: 'the OpenAPI document',
        status: 200,
        response: {
          openapi: '3.1.0',
          info: { title: 'Wallet verify', version: '0.1.0', description: '…' },
          servers: [{ url: 'http://localhost:4001' }],
          paths: { '/v1/human/verify': { get: { summary: 'Is this wallet a unique, palm-verified human?' } } },
          components: {},
        },
      },
    ],
  },
  {
    method: 'get',
    path: '/docs',
    tag: 'Platform',
    summary: 'This document as a readable page',
    responses: { 200: { description: 'HTML', schema: z.string(), contentType: 'text/html' } },
    examples: [
      {
        summary: 'the readable documentation page',
        status: 200,
        response: '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Wallet verify API</title>\n…\n</html>',
      },
    ],
  },
];
