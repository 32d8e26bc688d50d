import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { curlCommand, exampleBlock, examplesMarkdown, openApiDocument, withExamples, type OperationSpec } from '../src/index.js';

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
    responses: { 200: { description: 'Tokens', schema: z.object({ access_token: z.string() }) } },
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

  it('runs in the order given, each example after the set-up lines that get it something fresh (in the guide, not in curl samples)', () => {
    const [fresh] = withExamples([token!], {
      'POST /token': [{ summary: 'is it fresh?', setup: 'new_code   # a code of its own', form: true, body: { code: '$CODE' }, status: 200 }],
    });
    const text = examplesMarkdown([tag!, fresh!], 'http://localhost:1', ['POST /token']);
    expect(text).toMatch(
      /^#### `POST \/token`\n\nIs it fresh\? Answers 200:\n\n```sh\nnew_code {3}# a code of its own\ncurl -X POST 'http:\/\/localhost:1\/token' \\\n/,
    );
    expect(text.indexOf('POST /token')).toBeLessThan(text.indexOf('POST /items/{id}/tags'));
    expect(exampleBlock(fresh!.method, fresh!.path, fresh!.examples![0]!, 'http://localhost:1')).toBe(
      `new_code   # a code of its own\n${curlCommand(fresh!.method, fresh!.path, fresh!.examples![0]!, 'http://localhost:1')}`,
    );
    const doc = openApiDocument({ title: 't', description: 'd', operations: [fresh!] }, { version: '1', servers: [{ url: 'https://api.example' }] }) as any;
    expect(doc.paths['/token'].post['x-codeSamples'][0].source).toMatch(/^curl -X POST 'https:\/\/api\.example\/token'/);
  });
});

describe('answer examples', () => {
  const ZThing = z.object({ id: z.string() });
  const op = (examples: OperationSpec['examples']): OperationSpec => ({
    method: 'get',
    path: '/things/{id}',
    tag: 'Things',
    summary: 'A thing',
    params: z.object({ id: z.string() }),
    responses: {
      200: { description: 'The thing', schema: ZThing, alternatives: [{ contentType: 'text/html', schema: z.string() }] },
      204: { description: 'Nothing' },
      404: { description: 'No such thing', schema: z.object({ error: z.string() }) },
    },
    examples,
  });
  const document = (operation: OperationSpec) =>
    openApiDocument({ title: 't', description: 'd', operations: [operation] }, { version: '1', servers: [{ url: 'https://api.example' }] }) as any;

  it('go on the media type of the status each example answers, beside its schema', () => {
    const doc = document(
      op([
        { summary: 'found', params: { id: 'a' }, status: 200, response: { id: 'a' } },
        { summary: 'not found', params: { id: 'b' }, status: 404, response: { error: 'not_found' } },
      ]),
    );
    const responses = doc.paths['/things/{id}'].get.responses;
    expect(responses['200'].content['application/json'].examples).toEqual({ example1: { summary: 'found', value: { id: 'a' } } });
    expect(responses['200'].content['text/html'].examples).toBeUndefined();
    expect(responses['404'].content['application/json'].examples).toEqual({ example2: { summary: 'not found', value: { error: 'not_found' } } });
    expect(responses['500'].content['application/json'].examples).toBeUndefined();
  });

  it('refuse an answer for a status without a body, and an example of a status the operation does not document', () => {
    expect(() => document(op([{ summary: 'empty', params: { id: 'a' }, status: 204, response: {} }]))).toThrow(
      'example "empty" of GET /things/{id} gives a response, but 204 has no body',
    );
    expect(() => document(op([{ summary: 'teapot', params: { id: 'a' }, status: 418 }]))).toThrow(
      'example "teapot" of GET /things/{id} answers 418, which the operation does not document',
    );
  });
});
