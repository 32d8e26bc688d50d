import type { ErrorRequestHandler, RequestHandler } from 'express';
import { asciiHeaderText } from './challenge.js';
import { HttpError } from './errors.js';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  code?: string;
}

/**
 * What the framework refuses before any route runs, classed 4xx but not one of ours: a path
 * parameter that is not valid percent-encoding (`/v2/presets/%zz`) is a URIError with status 400.
 * Always the client's fault, so a 400 (not the framework's text or status, which name internals).
 */
function fromFramework(err: unknown): HttpError | undefined {
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (err instanceof URIError) return new HttpError(400, 'invalid_request', 'The request path is not valid percent-encoding');
  return new HttpError(400, 'invalid_request', 'The request could not be read');
}

/** body-parser reports its failures by `type`; each is the client's fault, never a 500. */
function fromBodyParser(err: BodyParserError): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'invalid_json', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new HttpError(413, 'payload_too_large', `The request body is larger than ${err.limit ?? 'allowed'} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'unsupported_media_type', 'The request body encoding is not supported');
    case 'parameters.too.many':
      return new HttpError(413, 'payload_too_large', 'The request body has too many parameters');
    case 'request.aborted':
      return new HttpError(400, 'request_aborted', 'The request was aborted');
    default:
      // A body that does not decompress under its Content-Encoding (gzip, deflate, br): zlib's
      // error, passed on by body-parser as a 400 with no type.
      if (err.status === 400 && typeof err.code === 'string') {
        return new HttpError(
          400,
          'invalid_body',
          'The request body could not be decoded with its Content-Encoding; send it uncompressed or encode it as the header says',
        );
      }
      return undefined;
  }
}

/** Tells a dependency outage (PostgreSQL or Redis unreachable) from a bug. */
export type OutageClassifier = (err: unknown) => boolean;

/**
 * The one place failures become HTTP. Typed errors keep their status and body; a dependency
 * outage is 503 `temporarily_unavailable` with Retry-After (the client should come back, and
 * /ready already says not_ready); anything else unexpected is logged with its stack and answered
 * as 500 `server_error` with the request id only.
 */
export function createErrorHandler(isOutage: OutageClassifier = () => false): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (!(err instanceof HttpError) && isOutage(err)) {
      req.log?.warn({ err: (err as Error).message }, 'dependency unavailable');
      res
        .status(503)
        .set('Retry-After', '5')
        .json({
          error: 'temporarily_unavailable',
          error_description: 'A service this request needs is unavailable; try again shortly',
          request_id: String(req.id ?? ''),
        });
      return;
    }
    answer(err, req, res);
  };
}

function answer(err: unknown, req: Parameters<ErrorRequestHandler>[1], res: Parameters<ErrorRequestHandler>[2]): void {
  const known = err instanceof HttpError ? err : (fromBodyParser(err as BodyParserError) ?? fromFramework(err));
  if (known) {
    if (known.status >= 500) req.log?.warn({ err: known }, known.description);
    res
      .status(known.status)
      // Visible ASCII only: one odd character in a header would turn this answer into an HTML 500.
      .set(Object.fromEntries(Object.entries(known.headers).map(([name, value]) => [name, asciiHeaderText(value)])))
      .json(known.withRequestId ? { ...known.toBody(), request_id: String(req.id ?? '') } : known.toBody());
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({
    error: 'server_error',
    error_description: 'The server could not complete the request',
    request_id: String(req.id ?? ''),
  });
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ error: 'not_found', error_description: `No route for ${req.method} ${req.path}`, request_id: String(req.id ?? '') });
};
