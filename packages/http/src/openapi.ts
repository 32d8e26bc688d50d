import { ZErrorBody } from '@svc/schemas';
import { z } from 'zod';
import { bodyExamples, curlCommand, responseExamples, type OperationExample } from './examples.js';

type Json = Record<string, unknown>;

/** How an operation is authenticated; an operation lists alternatives (any one suffices). */
export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An RS256 access token (RFC 9068) from /oauth/token.' },
  clientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic: the client id and secret, form-encoded, in HTTP Basic.' },
  sessionBearer: { type: 'http', scheme: 'bearer', description: 'A user session token (`svcsess_…`; `sbx_svcsess_…` in the sandbox) from POST /auth/session.' },
  personalAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A developer’s personal access token (`svcpat_…`; `sbx_svcpat_…` in the sandbox) from POST /v2/developer/personal-access-tokens.',
  },
  initialAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An RFC 7591 initial access token (`svciat_…`) from POST /v2/developer/initial-access-tokens.',
  },
  registrationAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An RFC 7592 registration access token (`svcrat_…`), answered by POST /oauth/register.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description: 'The session cookie (`__Host-svc_session` on https; `sbx_svc_session` in the sandbox); state-changing requests also carry the CSRF token.',
  },
  svcApiKey: { type: 'apiKey', in: 'header', name: 'X-SVC-API-Key', description: 'An API key with the wallet:verify permission.' },
  apiToken: { type: 'apiKey', in: 'header', name: 'X-API-Token', description: 'An API key with the credentials:issue permission.' },
  walletAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from the credential issuer’s POST /token (OpenID4VCI pre-authorized code grant), good for one credential.',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when the service is configured with one.' },
} as const;

export type SecurityScheme = keyof typeof SECURITY_SCHEMES;

export interface ResponseSpec {
  description: string;
  /** Omitted: no body (204, 303). */
  schema?: z.ZodType;
  contentType?: string;
  /** The same status in other media types (an HTML page for browsers, say). */
  alternatives?: { contentType: string; schema: z.ZodType }[];
  headers?: Record<string, string>;
}

export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** An OpenAPI path template: `/v2/presets/{preset_name}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Alternatives; each inner list must all hold. Omitted: public. */
  security?: SecurityScheme[][];
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  /** Defaults to JSON only. */
  bodyTypes?: string[];
  /** By status. 405, 500, 503 and (with a body) 413 are added to every operation. */
  responses: Record<number, ResponseSpec>;
  /** Requests that work against the demo data: OpenAPI examples, curl samples, the guides. */
  examples?: OperationExample[];
}

export interface ApiSpec {
  title: string;
  description: string;
  operations: OperationSpec[];
}

/** Converts zod schemas to JSON Schema 2020-12, hoisting every `$defs` into components.schemas. */
class SchemaSink {
  readonly components: Record<string, Json> = {};
  private anonymous = 0;

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const {
      $schema: _,
      $defs,
      ...json
    } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json & { $defs?: Record<string, Json> };
    const renamed = new Map<string, string>();
    for (const name of Object.keys($defs ?? {})) {
      // Named schemas keep their name (inputs are suffixed: their optional members differ);
      // zod's anonymous ones (`__schema0`) get one unique across the document.
      const target = name.startsWith('__schema') ? `Schema${this.anonymous++}` : io === 'input' ? `${name}Input` : name;
      renamed.set(name, target);
    }
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) {
        out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${renamed.get(v.slice(8))}` : rewrite(v);
      }
      return out;
    };
    for (const [name, def] of Object.entries($defs ?? {})) this.components[renamed.get(name)!] = rewrite(def) as Json;
    return rewrite(json) as Json;
  }
}

function parameters(sink: SchemaSink, where: 'query' | 'path', schema: z.ZodObject | undefined, examples: OperationExample[]): Json[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const converted = sink.convert(field as z.ZodType, 'input');
    const { description, ...rest } = converted as Json & { description?: string };
    const values = examples.flatMap((e, i) => {
      const value = (where === 'path' ? e.params : e.query)?.[name];
      return value === undefined ? [] : [[`example${i + 1}`, { summary: e.summary, value }]];
    });
    return {
      name,
      in: where,
      required: where === 'path' || !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
      ...(values.length ? { examples: Object.fromEntries(values) } : {}),
    };
  });
}

const isFormType = (mediaType: string) => mediaType === 'application/x-www-form-urlencoded';
const isForm = (examples: OperationExample[]) => examples.some((e) => e.form === true);

/** An OpenAPI 3.1 document for `api`, every schema generated from the zod schemas it names. */
export function openApiDocument(api: ApiSpec, options: { version: string; servers: { url: string; description?: string }[] }): Json {
  const sink = new SchemaSink();
  const paths: Record<string, Record<string, Json>> = {};
  const used = new Set<SecurityScheme>();
  for (const op of api.operations) {
    for (const alternative of op.security ?? []) for (const s of alternative) used.add(s);
    const responses: Record<string, Json> = {};
    const always: Record<number, ResponseSpec> = {
      405: { description: 'Method not allowed (the Allow header lists the methods)', schema: ZErrorBody },
      500: { description: 'Unexpected failure: only a request id is given', schema: ZErrorBody },
      503: { description: 'PostgreSQL or Redis unreachable: temporarily_unavailable, with Retry-After', schema: ZErrorBody },
    };
    if (op.body) always[413] = { description: 'Body larger than BODY_LIMIT', schema: ZErrorBody };
    const examples = op.examples ?? [];
    for (const e of examples) {
      const documented = op.responses[e.status];
      if (!documented)
        throw new Error(`example "${e.summary}" of ${op.method.toUpperCase()} ${op.path} answers ${e.status}, which the operation does not document`);
      if (e.response !== undefined && !documented.schema)
        throw new Error(`example "${e.summary}" of ${op.method.toUpperCase()} ${op.path} gives a response, but ${e.status} has no body`);
    }
    for (const [status, r] of Object.entries({ ...always, ...op.responses })) {
      // Answer examples go on the response's own media type (alternatives are for other Accept headers).
      const answered = responseExamples(examples, Number(status));
      responses[status] = {
        description: r.description,
        ...(r.headers ? { headers: Object.fromEntries(Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) } : {}),
        ...(r.schema
          ? {
              content: Object.fromEntries(
                [{ contentType: r.contentType ?? 'application/json', schema: r.schema }, ...(r.alternatives ?? [])].map((c, i) => [
                  c.contentType,
                  { schema: sink.convert(c.schema, 'output'), ...(i === 0 && answered ? { examples: answered } : {}) },
                ]),
              ),
            }
          : {}),
      };
    }
    const body = op.body ? sink.convert(op.body, 'input') : undefined;
    const bodyExample = bodyExamples(examples);
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      operationId: `${op.method}${op.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(op.security ? { security: op.security.map((alt) => Object.fromEntries(alt.map((s) => [s, []]))) } : {}),
      parameters: [...parameters(sink, 'path', op.params, examples), ...parameters(sink, 'query', op.query, examples)],
      ...(body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                (op.bodyTypes ?? ['application/json']).map((t) => [
                  t,
                  { schema: body, ...(bodyExample && isFormType(t) === isForm(examples) ? { examples: bodyExample } : {}) },
                ]),
              ),
            },
          }
        : {}),
      responses,
      // The de facto extension for request samples (Redoc, Scalar and others render it).
      ...(examples.length
        ? {
            'x-codeSamples': examples.map((e) => ({
              lang: 'Shell',
              label: `curl: ${e.summary}`,
              source: curlCommand(op.method, op.path, e, options.servers[0]?.url ?? ''),
            })),
          }
        : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: api.title, version: options.version, description: api.description },
    servers: options.servers,
    paths,
    components: {
      schemas: sink.components,
      securitySchemes: Object.fromEntries([...used].sort().map((s) => [s, SECURITY_SCHEMES[s]])),
    },
  };
}
