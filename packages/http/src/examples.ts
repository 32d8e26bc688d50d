/**
 * Request examples, written once beside each operation: they become the operation's OpenAPI
 * `examples` and a curl command (`x-codeSamples`, the docs/ guides), and a test runs every guide's
 * examples, top to bottom in one shell, against freshly started services.
 *
 * Values may name shell variables (`$ACCESS_TOKEN`); each guide says where each one comes from.
 * In a JSON body, a string `$NAME` stays a JSON string (`"$NAME"`), while `$json:NAME` inserts the
 * variable's value as JSON (a whole credential, say).
 */
export interface OperationExample {
  /** One line: what this request shows. */
  summary: string;
  /** Path parameters, by name. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** `curl -u`: HTTP Basic (client_secret_basic). */
  basic?: string;
  /** A JSON body, or a form body when `form` is set. */
  body?: unknown;
  form?: boolean;
  /** The status this request gets against `npm start`'s demo data. */
  status: number;
  /**
   * Shell lines the guide runs just before the command, when it needs something fresh (a pending
   * authorization, a code): what the examples above it spent or ended. Guides only; they may use
   * what the guide's first block defines.
   */
  setup?: string;
  /**
   * The body of the answer, as the service gives it for this request (long lists shortened): the
   * OpenAPI example of that status's response. Required wherever that response has a body.
   */
  response?: unknown;
}

const RAW_JSON = /"\$json:([A-Z_]+)"/g;

function shellQuote(value: string): string {
  // Double quotes where a variable must expand, single quotes everywhere else.
  if (value.includes('$')) return `"${value.replace(/(["\\`])/g, '\\$1')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** JSON as a person lays it out: whatever fits on a line stays on one. */
function readableJson(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value);
  if (flat.length + indent.length <= 100 || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => inner + readableJson(v, inner))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${readableJson(v, inner)}`);
  return Array.isArray(value) ? `[\n${items.join(',\n')}\n${indent}]` : `{\n${items.join(',\n')}\n${indent}}`;
}

/** The example's path with its parameters filled in and its query string. */
export function examplePath(path: string, example: OperationExample): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = example.params?.[name];
    if (value === undefined) throw new Error(`example "${example.summary}" for ${path} lacks the path parameter ${name}`);
    return value.startsWith('$') ? value : encodeURIComponent(value);
  });
  const query = Object.entries(example.query ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith('$') ? v : encodeURIComponent(v)}`)
    .join('&');
  return query ? `${filled}?${query}` : filled;
}

/** The example as one copy-paste curl command against `baseUrl`. */
export function curlCommand(method: string, path: string, example: OperationExample, baseUrl: string): string {
  const lines = [
    `curl ${method.toUpperCase() === 'GET' ? '' : `-X ${method.toUpperCase()} `}${shellQuote(baseUrl.replace(/\/$/, '') + examplePath(path, example))}`,
  ];
  if (example.basic) lines.push(`-u ${shellQuote(example.basic)}`);
  for (const [name, value] of Object.entries(example.headers ?? {})) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  let heredoc: string | undefined;
  if (example.form) {
    for (const [name, value] of Object.entries(example.body as Record<string, string>)) lines.push(`--data-urlencode ${shellQuote(`${name}=${value}`)}`);
  } else if (example.body !== undefined) {
    lines.push(`-H 'content-type: application/json'`);
    const json = readableJson(example.body).replace(RAW_JSON, '$$$1');
    // A body that names variables goes in a here-document, where they expand and quotes stay as they are.
    if (json.includes('$')) {
      lines.push('--data @- <<EOF');
      heredoc = `${json}\nEOF`;
    } else lines.push(`-d ${shellQuote(JSON.stringify(example.body))}`);
  }
  return lines.join(' \\\n  ') + (heredoc ? `\n${heredoc}` : '');
}

/** The OpenAPI `examples` of a request body: the example's value, variables shown by name. */
export function bodyExamples(examples: OperationExample[]): Record<string, { summary: string; value: unknown }> | undefined {
  const withBody = examples.filter((e) => e.body !== undefined);
  if (withBody.length === 0) return undefined;
  return Object.fromEntries(withBody.map((e, i) => [`example${i + 1}`, { summary: e.summary, value: e.body }]));
}

/** Attaches examples, keyed `METHOD /path`, to their operations; a key that names none is a mistake. */
export function withExamples<T extends { method: string; path: string; examples?: OperationExample[] }>(
  operations: T[],
  examples: Record<string, OperationExample[]>,
): T[] {
  const keyOf = (op: T) => `${op.method.toUpperCase()} ${op.path}`;
  const unknown = Object.keys(examples).filter((key) => !operations.some((op) => keyOf(op) === key));
  if (unknown.length) throw new Error(`examples for operations that do not exist: ${unknown.join(', ')}`);
  return operations.map((op) => (examples[keyOf(op)] ? { ...op, examples: examples[keyOf(op)] } : op));
}

/** The OpenAPI `examples` of the answers with `status`: each example's `response`. */
export function responseExamples(examples: OperationExample[], status: number): Record<string, { summary: string; value: unknown }> | undefined {
  const answered = examples.flatMap((e, i) =>
    e.status === status && e.response !== undefined ? [[`example${i + 1}`, { summary: e.summary, value: e.response }]] : [],
  );
  return answered.length ? Object.fromEntries(answered) : undefined;
}

/** A guide's shell block for one example: its setup lines, then the command. */
export function exampleBlock(method: string, path: string, example: OperationExample, baseUrl: string): string {
  const command = curlCommand(method, path, example, baseUrl);
  return example.setup ? `${example.setup.trim()}\n${command}` : command;
}

const sentence = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;

/**
 * The guide's section of examples: for each operation, each example as a shell block against
 * `baseUrl`. The guide runs top to bottom, so `order` (keys `METHOD /path`) puts the operations
 * that spend or end something after those that need it; operations it leaves out follow, as given.
 */
export function examplesMarkdown(
  operations: { method: string; path: string; summary: string; examples?: OperationExample[] }[],
  baseUrl: string,
  order: string[] = [],
): string {
  const rank = (op: { method: string; path: string }) => {
    const i = order.indexOf(`${op.method.toUpperCase()} ${op.path}`);
    return i < 0 ? order.length : i;
  };
  return operations
    .filter((op) => op.examples?.length)
    .map((op, i) => ({ op, i }))
    .sort((a, b) => rank(a.op) - rank(b.op) || a.i - b.i)
    .map(({ op }) => {
      const blocks = op.examples!.map(
        (e) => `${sentence(e.summary)} Answers ${e.status}:\n\n\`\`\`sh\n${exampleBlock(op.method, op.path, e, baseUrl)}\n\`\`\``,
      );
      return `#### \`${op.method.toUpperCase()} ${op.path}\`\n\n${blocks.join('\n\n')}`;
    })
    .join('\n\n');
}
