import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import express, { type Express } from 'express';
import request from 'supertest';

type Json = Record<string, unknown>;
interface Documented {
  template: string;
  pattern: RegExp;
  methods: Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>;
}

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * Checks values against the schemas of an OpenAPI document, found by their path in it (say an
 * answer example against its response's schema), with the same rules as contractChecked: response
 * objects are closed. Answers the errors, or undefined when the value fits.
 */
export function documentValidator(doc: Json): (path: string[], value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'doc');
  return (path, value) => {
    const validate = ajv.getSchema(`doc#/${pointer(...path)}`);
    if (!validate) return `no schema at ${path.join(' ')}`;
    return validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'value' });
  };
}

/**
 * Wraps `app` so that every answer it gives is checked against the OpenAPI document it serves at
 * /openapi.json: the operation and status must be documented, the media type listed, and a JSON
 * body must match the schema (unknown members included: response objects are closed). A suite
 * awaits `violations()` when it ends and expects none.
 */
export function contractChecked(app: Express): { app: Express; violations(): Promise<string[]> } {
  const violations: string[] = [];
  const pending = new Set<Promise<void>>();
  let loading: Promise<{ paths: Documented[]; ajv: Ajv2020 }> | undefined;
  const load = async () => {
    const doc = (await request(app).get('/openapi.json')).body as Json & { paths: Record<string, Documented['methods']> };
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(doc, 'doc');
    // Literal paths before templated ones: /v2/presets/batch is not /v2/presets/{preset_name}.
    const paths = Object.entries(doc.paths)
      .map(([template, methods]) => ({
        template,
        methods,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}/]{1,50}\\?\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
    return { paths, ajv };
  };
  const validators = new Map<string, ValidateFunction | undefined>();

  const outer = express();
  outer.use((req, res, next) => {
    let body: unknown;
    const send = res.send.bind(res);
    res.send = (chunk?: unknown) => {
      body ??= chunk;
      return send(chunk);
    };
    // An answer may also be written without res.send (a hot path's own JSON writer): its bytes.
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] === 'string' || Buffer.isBuffer(args[0])) body ??= args[0];
      return end(...args);
    }) as typeof res.end;
    res.on('finish', () => {
      // CORS preflights are the browser's, not operations of the API (OpenAPI documents none).
      if (req.path === '/openapi.json' || (req.method === 'OPTIONS' && req.headers['access-control-request-method'])) return;
      loading ??= load();
      const check = loading.then(({ paths, ajv }) => {
        const where = `${req.method} ${req.path} → ${res.statusCode}`;
        const documented = paths.find((p) => p.pattern.test(req.path));
        const op = documented?.methods[req.method.toLowerCase()];
        if (!documented || !op) {
          // A route the service does not have answers the generic 404/405 body.
          if (res.statusCode !== 404 && res.statusCode !== 405) violations.push(`${where}: no such operation in the document`);
          return;
        }
        const response = op.responses[String(res.statusCode)];
        if (!response) return void violations.push(`${where}: status not documented`);
        if (res.statusCode >= 300 && res.statusCode < 400) return;
        const type = String(res.getHeader('content-type') ?? '')
          .split(';')[0]!
          .trim();
        const content = response.content ?? {};
        if (!type) return void (Object.keys(content).length && violations.push(`${where}: no body, documented ${Object.keys(content).join(', ')}`));
        const media = Object.keys(content).find((m) => m.split(';')[0] === type);
        if (!media) return void violations.push(`${where}: ${type} not documented (${Object.keys(content).join(', ') || 'no body'})`);
        if (type !== 'application/json') return;
        const ref = `doc#/${pointer('paths', documented.template, req.method.toLowerCase(), 'responses', String(res.statusCode), 'content', media, 'schema')}`;
        if (!validators.has(ref)) validators.set(ref, ajv.getSchema(ref));
        const validate = validators.get(ref)!;
        const parsed = typeof body === 'string' ? JSON.parse(body) : Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body;
        if (!validate(parsed)) violations.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
      });
      pending.add(check);
      void check.finally(() => pending.delete(check));
    });
    next();
  });
  outer.use(app);
  return {
    app: outer,
    violations: async () => {
      await Promise.all(pending);
      return violations;
    },
  };
}
