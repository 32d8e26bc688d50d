// Every operation of every service's OpenAPI document, fed malformed JSON, oversized and
// over-deep bodies, wrong types for each member, odd Unicode and abusive headers, with and
// without valid credentials; and a few requests no HTTP client would send, over a raw socket.
// Zero 5xx and zero stack traces.
import { connect } from 'node:net';

const STACK = /\n\s+at\s|\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|\.js:\d+:\d+/;

const ODD_STRINGS = [
  '\u0000',
  '\ud800',
  'a\u202Eevil',
  '😀'.repeat(2000),
  'e\u0301\u0301\u0301',
  ' '.repeat(5000),
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '$' + '{jndi:ldap://x}', // the Log4Shell lookup, as an attacker would send it
  '%00%ff',
  '__proto__',
];
const WRONG_VALUES = [null, true, 0, -1, 1e308, 'x', [], {}, [[[]]], { __proto__: { admin: true } }, ODD_STRINGS[1], ODD_STRINGS[3]];

function deep(levels) {
  let v = 'bottom';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

/** A property list for a JSON body schema, following one $ref into components. */
function propertiesOf(schema, doc) {
  if (!schema) return [];
  if (schema.$ref) return propertiesOf(doc.components.schemas[schema.$ref.split('/').pop()], doc);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return [...new Set(alternatives.flatMap((s) => propertiesOf(s, doc)))];
  return Object.keys(schema.properties ?? {});
}

function casesFor(path, method, op, doc) {
  const url = path.replace(/\{[^}]+\}/g, 'urn%3Auuid%3A00000000-0000-4000-8000-000000000000');
  const json = op.requestBody?.content?.['application/json']?.schema;
  const cases = [];
  const add = (label, init) => cases.push({ label: `${method.toUpperCase()} ${path}: ${label}`, url, method: method.toUpperCase(), ...init });
  // A path parameter that is not valid percent-encoding fails before any route runs.
  if (/\{[^}]+\}/.test(path)) {
    for (const bad of ['%zz', '%', '%E0%A4%A', 'a%2']) add(`path parameter ${bad}`, { url: path.replace(/\{[^}]+\}/g, bad) });
  }
  for (const param of op.parameters ?? []) {
    if (param.in !== 'query') continue;
    add(`query ${param.name} odd`, { query: `${param.name}=${encodeURIComponent(ODD_STRINGS[2])}&${param.name}=%C0%AF&${param.name}=%FF` });
    add(`query ${param.name} huge`, { query: `${param.name}=${'9'.repeat(5000)}` });
    add(`query ${param.name} uuid-shaped`, { query: `${param.name}=${'-'.repeat(36)}` });
    add(`query ${param.name} nested`, { query: `${param.name}[a][b]=1&${param.name}[]=2` });
  }
  if (method === 'get') return cases;
  add('malformed JSON', { body: '{"a": ', type: 'application/json' });
  add('JSON with a trailing comma', { body: '{"a": 1,}', type: 'application/json' });
  add('body over the size limit', { body: JSON.stringify({ a: 'x'.repeat(200_000) }), type: 'application/json' });
  add('body nested 200 deep', { body: JSON.stringify({ a: deep(200) }), type: 'application/json' });
  for (const whole of [null, [], 'text', 42, true]) add(`body ${JSON.stringify(whole)}`, { body: JSON.stringify(whole), type: 'application/json' });
  add('form body with odd bytes', { body: 'a=%FF%FE&b[c]=1&__proto__[x]=1', type: 'application/x-www-form-urlencoded' });
  add('unsupported charset', { body: '{}', type: 'application/json; charset=utf-32' });
  add('XML', { body: '<a/>', type: 'application/xml' });
  for (const prop of propertiesOf(json, doc)) {
    for (const value of WRONG_VALUES)
      add(`${prop}: ${JSON.stringify(value)?.slice(0, 20)}`, { body: JSON.stringify({ [prop]: value }), type: 'application/json' });
    for (const s of ODD_STRINGS) add(`${prop}: odd string`, { body: JSON.stringify({ [prop]: s }), type: 'application/json' });
  }
  return cases;
}

const HEADER_ABUSE = [
  { label: 'huge bearer', headers: { authorization: `Bearer ${'a'.repeat(7000)}` } },
  { label: 'malformed basic', headers: { authorization: 'Basic !!!not-base64' } },
  { label: 'basic without colon', headers: { authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` } },
  { label: 'odd auth scheme', headers: { authorization: 'Negotiate YIIB' } },
  { label: 'a hundred cookies', headers: { cookie: Array.from({ length: 100 }, (_, i) => `c${i}=${'v'.repeat(50)}`).join('; ') } },
  { label: 'session cookie garbage', headers: { cookie: 'svc_session=%E0%A4%A' } },
  { label: 'odd request id', headers: { 'x-request-id': 'a'.repeat(500) } },
  { label: 'api keys of the wrong shape', headers: { 'x-svc-api-key': 'svck_\u00e9', 'x-api-token': 'svck_'.repeat(200) } },
  { label: 'accept nothing', headers: { accept: 'application/x-nothing' } },
];

/** Requests no HTTP client library sends: the server must answer (or close) without a 5xx. */
const RAW = [
  'POST /auth/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"a":1}',
  'POST /auth/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\ngarbage\r\n0\r\n\r\n',
  'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n',
  `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  'GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\nConnection: close\r\n\r\n',
];

function raw(port, text) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (d) => (data += d));
    socket.on('error', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.end(text);
  });
}

export async function fuzz(env) {
  const auth = {
    'identity-provider': {},
    'wallet-verify': { 'x-svc-api-key': env.demo.api_keys.wallet_verify.key },
    'credential-issuer': { 'x-api-token': env.demo.api_keys.credential_issuer.key },
  };
  const failures = [];
  const seen = {};
  let total = 0;
  for (const [service, { url: base, port }] of Object.entries(env.services)) {
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    const cases = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).flatMap(([method, op]) => casesFor(path, method, op, doc)));
    const withHeaders = Object.keys(doc.paths).flatMap((path) =>
      HEADER_ABUSE.map((h) => ({ label: `GET ${path}: ${h.label}`, url: path.replace(/\{[^}]+\}/g, 'x'), method: 'GET', headers: h.headers })),
    );
    for (const c of [...cases, ...withHeaders]) {
      for (const credentials of [{}, auth[service]]) {
        total++;
        let res;
        try {
          res = await fetch(`${base}${c.url}${c.query ? `?${c.query}` : ''}`, {
            method: c.method,
            headers: { ...credentials, ...c.headers, ...(c.type ? { 'content-type': c.type } : {}) },
            ...(c.body !== undefined ? { body: c.body } : {}),
            redirect: 'manual',
            signal: AbortSignal.timeout(10_000),
          });
        } catch (err) {
          failures.push(`${service} ${c.label}: no answer (${err.message})`);
          continue;
        }
        const text = await res.text();
        seen[res.status] = (seen[res.status] ?? 0) + 1;
        if (res.status >= 500) failures.push(`${service} ${c.label}: ${res.status} ${text.slice(0, 160)}`);
        if (STACK.test(text)) failures.push(`${service} ${c.label}: the answer shows internals: ${text.slice(0, 160)}`);
        if ((res.headers.get('content-type') ?? '').includes('json')) {
          try {
            JSON.parse(text);
          } catch {
            failures.push(`${service} ${c.label}: answered invalid JSON`);
          }
        }
      }
    }
    for (const text of RAW) {
      total++;
      const answer = await raw(port, text);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      seen[status || 'closed'] = (seen[status || 'closed'] ?? 0) + 1;
      if (status >= 500 || STACK.test(answer)) failures.push(`${service} raw ${JSON.stringify(text.slice(0, 40))}: ${answer.slice(0, 160)}`);
    }
    const health = await fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (health !== 200) failures.push(`${service} is not healthy after the fuzzing (${health})`);
  }
  return {
    name: 'fuzzing every operation: malformed, oversized and deep bodies, wrong types, odd Unicode, header abuse, raw requests',
    failures: failures.slice(0, 30).concat(failures.length > 30 ? [`… and ${failures.length - 30} more`] : []),
    figures: [
      `${total} requests; statuses ${Object.entries(seen)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    ],
  };
}
