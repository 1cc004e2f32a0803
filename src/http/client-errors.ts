/**
 * Requests Node's HTTP parser refuses before any route sees them, answered in the JSON error
 * shape every other error has (`{error, code}`, src/errors.ts) instead of Node's and Fastify's own
 * bodies:
 * - an HTTP/1.1 request without a `Host` header (RFC 9112 §3.2): Node would answer 400
 *   with an empty body itself, so the server is built with `requireHostHeader: false`
 *   (HTTP_SERVER_OPTIONS) and the gate refuses it through hostProblem instead;
 * - a request the parser cannot read at all (clientErrorHandler): 400, 408 or 431;
 * - a body cut short: the client sent less than its `Content-Length` and closed its side
 *   (`HPE_INVALID_EOF_STATE`): 400 `BAD_CONTENT_LENGTH` while the socket can still be written;
 *   for an upload (a route that reads its body as a stream, src/ingest/raw-body.ts) 400
 *   `BODY_READ_FAILED`, the answer its route gives to an upload that broke off.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, KlebbError } from '../errors.js';

/** Options for Node's `http.createServer` (Fastify's `http` option). */
export const HTTP_SERVER_OPTIONS: http.ServerOptions = { requireHostHeader: false };

/**
 * 400 HOST_REQUIRED for an HTTP/1.1 request without a `Host` header (the rule Node applies when
 * `requireHostHeader` is on), else null. HTTP/1.0 requests may leave it out.
 * @param req the raw request (`httpVersion`, `headers.host`).
 */
export function hostProblem(req: Pick<http.IncomingMessage, 'httpVersion' | 'headers'>): KlebbError | null {
  if (req.httpVersion === '1.0' || req.headers.host !== undefined) return null;
  return new KlebbError(400, 'HOST_REQUIRED', 'the Host header is missing (HTTP/1.1 requires it)');
}

/** Per connection: the upload request being read on it (a route that streams its body). */
const uploads = new WeakMap<Socket, http.IncomingMessage>();

/** Notes that `req` is an upload whose body its route reads as a stream. */
export function noteUpload(req: http.IncomingMessage): void {
  uploads.set(req.socket, req);
}

/** Whether the request being read on `socket` is an upload whose body has not all arrived. */
function uploadCutShort(socket: Socket): boolean {
  const req = uploads.get(socket);
  return req !== undefined && !req.complete;
}

/**
 * Fastify's `clientErrorHandler`: answers a request the HTTP parser refused with
 * `{error, code}` and closes the connection; a reset or already closed socket gets nothing.
 * @param err the parser's error (`code`: `ERR_HTTP_REQUEST_TIMEOUT` → 408,
 *   `HPE_HEADER_OVERFLOW` → 431, `HPE_INVALID_EOF_STATE` → 400 BAD_CONTENT_LENGTH, or
 *   BODY_READ_FAILED for an upload, anything else → 400).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, error]: [number, ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'the request took too long to arrive']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'the request headers are too large']
        : err.code === 'HPE_INVALID_EOF_STATE' && uploadCutShort(socket)
          ? [
              400,
              'BODY_READ_FAILED',
              'the upload broke off before its body was read (the connection ended before the body reached its Content-Length); nothing of it was kept, send it again',
            ]
          : err.code === 'HPE_INVALID_EOF_STATE'
            ? [
                400,
                'BAD_CONTENT_LENGTH',
                'the connection ended before the request did: the body is shorter than its Content-Length',
              ]
            : [400, 'BAD_REQUEST', 'the request could not be read as HTTP'];
  if (!socket.writable) {
    socket.destroy(err);
    return;
  }
  const body = JSON.stringify({ error, code });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
