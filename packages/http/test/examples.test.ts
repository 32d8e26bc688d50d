import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { curlCommand, examplesMarkdown, openApiDocument, withExamples, type OperationSpec } from '../src/index.js';

const OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/items/{id}/tags',
    tag: 'Items',
    summary: 'Tag an item',
    params: z.object({ id: z.string() }),
    query: z.object({ dry_run: z.string().optional() }),
    body: z.object({ tag: z.string(), owner: z.unknown() }),
    responses: { 201: { description: 'Tagged' } },
  },
  {
    method: 'post',
    path: '/token',
    tag: 'OAuth',
    summary: 'A token',
    body: z.object({ code: z.string() }),
    bodyTypes: ['application/x-www-form-urlencoded'],
    responses: {},
  },
];

describe('request examples', () => {
  const [tag, token] = withExamples(OPERATIONS, {
    'POST /items/{id}/tags': [
      { summary: 'static', params: { id: 'a b' }, query: { dry_run: '1' }, body: { tag: "it's", owner: null }, status: 201 },
      {
        summary: 'with variables',
        params: { id: '$ITEM_ID' },
        headers: { Authorization: 'Bearer $TOKEN' },
        body: { tag: '$TAG', owner: '$json:OWNER' },
        status: 201,
      },
    ],
    'POST /token': [{ summary: 'a form', basic: '$CLIENT_ID:$CLIENT_SECRET', form: true, body: { code: '$CODE' }, status: 200 }],
  });

  it('quotes for the shell: single quotes unless a variable must expand, a here-document for JSON that names one', () => {
    expect(curlCommand(tag!.method, tag!.path, tag!.examples![0]!, 'http://localhost:1/')).toBe(
      `curl -X POST 'http://localhost:1/items/a%20b/tags?dry_run=1' \\\n  -H 'content-type: application/json' \\\n  -d '{"tag":"it'\\''s","owner":null}'`,
    );
    expect(curlCommand(tag!.method, tag!.path, tag!.examples![1]!, 'http://localhost:1')).toBe(
      `curl -X POST "http://localhost:1/items/$ITEM_ID/tags" \\\n  -H "Authorization: Bearer $TOKEN" \\\n  -H 'content-type: application/json' \\\n  --data @- <<EOF\n{"tag":"$TAG","owner":$OWNER}\nEOF`,
    );
    expect(curlCommand(token!.method, token!.path, token!.examples![0]!, 'http://localhost:1')).toBe(
      `curl -X POST 'http://localhost:1/token' \\\n  -u "$CLIENT_ID:$CLIENT_SECRET" \\\n  --data-urlencode "code=$CODE"`,
    );
  });

  it('refuses examples for operations that do not exist, and a path parameter left out', () => {
    expect(() => withExamples(OPERATIONS, { 'GET /token': [] })).toThrow('examples for operations that do not exist: GET /token');
    expect(() => curlCommand('post', '/items/{id}/tags', { summary: 'x', status: 201 }, '')).toThrow('lacks the path parameter id');
  });

  it('puts them in the OpenAPI document: parameter and body examples of the right media type, and curl samples', () => {
    const doc = openApiDocument(
      { title: 't', description: 'd', operations: [tag!, token!] },
      { version: '1', servers: [{ url: 'https://api.example' }] },
    ) as any;
    const op = doc.paths['/items/{id}/tags'].post;
    expect(op.parameters[0].examples).toEqual({ example1: { summary: 'static', value: 'a b' }, example2: { summary: 'with variables', value: '$ITEM_ID' } });
    expect(op.requestBody.content['application/json'].examples.example1).toEqual({ summary: 'static', value: { tag: "it's", owner: null } });
    expect(op['x-codeSamples'].map((s: { source: string }) => s.source.split(' \\')[0])).toEqual([
      "curl -X POST 'https://api.example/items/a%20b/tags?dry_run=1'",
      'curl -X POST "https://api.example/items/$ITEM_ID/tags"',
    ]);
    expect(doc.paths['/token'].post.requestBody.content['application/x-www-form-urlencoded'].examples.example1.value).toEqual({ code: '$CODE' });
  });

  it('writes the guide section: each operation, each example with the status it gets', () => {
    const text = examplesMarkdown([tag!, token!], 'http://localhost:1');
    expect(text).toMatch(/^#### `POST \/items\/\{id\}\/tags`\n\nStatic\. Answers 201:\n\n```sh\ncurl /);
    expect(text).toContain('#### `POST /token`\n\nA form. Answers 200:');
  });
});
