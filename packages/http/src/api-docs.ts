import { createHash } from 'node:crypto';
import { Router } from 'express';
import { methodNotAllowed } from './method-not-allowed.js';

type Json = Record<string, unknown>;

const esc = (v: string) => v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Phone-sized screens: long names wrap, and a wide table scrolls inside itself, never the page.
const STYLE = `*{box-sizing:border-box} body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fff;overflow-wrap:anywhere}
h2{border-bottom:1px solid #ccc;margin-top:2.5rem} h3{font-size:1rem;margin:1.5rem 0 .25rem}
code,pre{font:13px/1.4 ui-monospace,monospace} pre{background:#f5f5f5;padding:.5rem;overflow:auto;max-height:24rem;white-space:pre-wrap}
.m{display:inline-block;min-width:4rem;font-weight:700;text-transform:uppercase} table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top} details{margin:.25rem 0} small{color:#555}
ul.alt{margin:.25rem 0;padding-left:1.25rem} :focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
const PAGE_POLICY = `default-src 'none'; style-src ${STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

const CONSTRAINTS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'pattern', 'format'];

/**
 * A JSON Schema as a person reads it: objects as tables of members (name, required, type and
 * meaning), nested as deep as the schema goes; arrays, alternatives, constants, enumerations and
 * constraints in words; references as links to the schema's own section.
 */
function schemaHtml(schema: unknown, depth = 0): string {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Json;
  const description = typeof s.description === 'string' ? esc(s.description) : '';
  const about = description ? `<br><small>${description}</small>` : '';
  if (depth > 8) return '…';
  if (typeof s.$ref === 'string') {
    const name = s.$ref.split('/').pop()!;
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>${about}`;
  }
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return `one of:<ul class="alt">${alternatives.map((a) => `<li>${schemaHtml(a, depth + 1)}</li>`).join('')}</ul>${about}`;
  if (s.type === 'object' || s.properties) {
    const members = Object.entries((s.properties ?? {}) as Record<string, unknown>);
    const required = new Set((s.required as string[] | undefined) ?? []);
    const others =
      s.additionalProperties && typeof s.additionalProperties === 'object' ? `<p>Other members: ${schemaHtml(s.additionalProperties, depth + 1)}</p>` : '';
    if (!members.length) return `object${about}${others}`;
    const rows = members
      .map(
        ([name, member]) => `<tr><td><code>${esc(name)}</code></td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${schemaHtml(member, depth + 1)}</td></tr>`,
      )
      .join('');
    return `${description ? `<small>${description}</small>` : ''}<table><tr><th>member</th><th>required</th><th>type and meaning</th></tr>${rows}</table>${others}`;
  }
  if (s.type === 'array') return `array of ${schemaHtml(s.items, depth + 1)}${about}`;
  const parts = [Array.isArray(s.type) ? s.type.join(' or ') : String(s.type ?? (s.const !== undefined ? 'constant' : 'any value'))];
  if (s.const !== undefined) parts.push(`<code>${esc(JSON.stringify(s.const))}</code>`);
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
  for (const c of CONSTRAINTS) if (s[c] !== undefined) parts.push(`${c} <code>${esc(String(s[c]))}</code>`);
  return `${parts.join(', ')}${about}`;
}

function operationHtml(path: string, method: string, op: Json): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const security = (op.security as Json[] | undefined)?.map((alt) => Object.keys(alt).join(' + ')).join(' or ');
  const body = (op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content;
  const responses = op.responses as Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  return `<section id="${esc(String(op.operationId))}">
<h3><span class="m">${esc(method)}</span> <code>${esc(path)}</code></h3>
<p>${esc(String(op.summary ?? ''))}</p>${op.description ? `\n<p>${esc(String(op.description))}</p>` : ''}
<p>Authentication: ${security ? esc(security) : 'none'}</p>
${((op['x-codeSamples'] as { label: string; source: string }[] | undefined) ?? [])
  .map((sample) => `<details open><summary>Example (${esc(sample.label)})</summary><pre><code>${esc(sample.source)}</code></pre></details>`)
  .join('\n')}
${
  params.length
    ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th></tr>${params
        .map(
          (p) =>
            `<tr><td><code>${esc(String(p.name))}</code></td><td>${esc(String(p.in))}</td><td>${p.required ? 'yes' : 'no'}</td><td>${schemaHtml(p.schema)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${
  body
    ? Object.entries(body)
        .map(([type, c]) => `<details><summary>Request body (${esc(type)})</summary>${schemaHtml(c.schema)}</details>`)
        .join('\n')
    : ''
}
${Object.entries(responses)
  .map(([status, r]) => {
    const content = Object.entries(r.content ?? {});
    return content.length
      ? content
          .map(([type, c]) => `<details><summary>${esc(status)} ${esc(r.description)} (${esc(type)})</summary>${schemaHtml(c.schema)}</details>`)
          .join('\n')
      : `<p>${esc(status)} ${esc(r.description)}</p>`;
  })
  .join('\n')}
</section>`;
}

/** A readable, script-free page of an OpenAPI document: operations by tag, then every schema. */
export function renderApiDocs(doc: Json): string {
  const info = doc.info as { title: string; version: string; description: string };
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = ((op.tags as string[] | undefined) ?? ['other'])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} API</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${esc(info.title)} <small>${esc(info.version)}</small></h1>
<p>${esc(info.description)}</p>
<p>The machine-readable document: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<nav><ul>${[...byTag.keys()].map((t) => `<li><a href="#tag-${esc(t)}">${esc(t)}</a></li>`).join('')}<li><a href="#schemas">Schemas</a></li></ul></nav>
${[...byTag].map(([tag, ops]) => `<h2 id="tag-${esc(tag)}">${esc(tag)}</h2>\n${ops.join('\n')}`).join('\n')}
<h2 id="schemas">Schemas</h2>
${Object.entries(schemas)
  .map(([name, s]) => `<h3 id="schema-${esc(name)}">${esc(name)}</h3>${schemaHtml(s)}`)
  .join('\n')}
</main>
</body>
</html>`;
}

/** GET /openapi.json (readable from any origin) and GET /docs, both built once. */
const LINKS = { docs: '/docs', openapi: '/openapi.json', health: '/health', ready: '/ready' };

/** `GET /`: the service's name, version and where to read about it; a short page for a browser. */
function serviceIndex(doc: Json) {
  const info = (doc.info ?? {}) as { title?: string; description?: string; version?: string };
  const index = { title: info.title ?? '', description: info.description ?? '', version: info.version ?? '', links: LINKS };
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(index.title)}</title><style>${STYLE}</style></head>
<body><main><h1>${esc(index.title)}</h1><p>${esc(index.description)}</p>
<ul><li><a href="${LINKS.docs}">API documentation</a></li><li><a href="${LINKS.openapi}">OpenAPI document</a></li><li><a href="${LINKS.health}">Health</a> and <a href="${LINKS.ready}">readiness</a></li></ul>
<p><small>Version ${esc(index.version)}</small></p></main></body></html>
`;
  return { index, page };
}

export function apiDocsRouter(doc: Json): Router {
  const json = JSON.stringify(doc);
  const html = renderApiDocs(doc);
  const { index, page } = serviceIndex(doc);
  const router = Router();
  router
    .route('/')
    .get((req, res) => {
      res.vary('Accept');
      // The same style as /docs, allowed by its hash under the same strict policy.
      if (req.accepts(['json', 'html']) === 'html') res.set('Content-Security-Policy', PAGE_POLICY).type('html').send(page);
      else res.json(index);
    })
    .all(methodNotAllowed);
  router
    .route('/openapi.json')
    .get((_req, res) => {
      res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' }).type('json').send(json);
    })
    .all(methodNotAllowed);
  router
    .route('/docs')
    .get((_req, res) => {
      res
        .set({
          'Content-Security-Policy': PAGE_POLICY,
          'Cache-Control': 'public, max-age=300',
        })
        .type('html')
        .send(html);
    })
    .all(methodNotAllowed);
  return router;
}
