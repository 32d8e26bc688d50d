import { toApiError } from './errors.js';

export interface TransportOptions {
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request; defaults to 10 s. */
  timeoutMs?: number;
  /** Added to every request (a tracing id, say). */
  headers?: Record<string, string>;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON request: throws a typed SvcApiError for any status outside 2xx. */
export async function call<T>(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> },
  options: TransportOptions,
): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...init.headers };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  // Relative to the base's own path, so `https://host/idp` + `/oauth/token` is `https://host/idp/oauth/token`.
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  const res = await (options.fetch ?? fetch)(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    redirect: 'manual',
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  if (res.status < 200 || res.status >= 300) throw toApiError(res.status, parsed, res.headers);
  return { status: res.status, body: parsed as T, headers: res.headers };
}
