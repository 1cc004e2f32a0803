/**
 * The one place errors become HTTP responses: `{error, code, details?}` (plus `path`/`id` for
 * row errors). KlebbErrors carry their own status; Fastify's own client errors (bad JSON, wrong
 * content type, body too large, schema validation) keep their 4xx status; anything else is a
 * 500 with a generic message, logged with its stack (the only answer logged with one). A user's mistake is never a 500, and
 * neither is a locked database or a restore being applied (503 with Retry-After) or a full disk (507; src/store/storage-faults.ts).
 * Every 401 carries a `WWW-Authenticate: Bearer` challenge (src/http/www-authenticate.ts).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, KlebbError, RetryLaterError } from '../errors.js';
import { storageFault } from '../store/storage-faults.js';
import { PATH_PART_TOO_LONG } from './path-parts.js';
import { validationDetails } from './schema-issues.js';
import { bearerChallenge } from './www-authenticate.js';

/** JSON body of every error response. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details?: { path: string; message: string }[];
  [extra: string]: unknown;
}

/** Fastify's own client-error codes, renamed to our stable ones (docs/API.md "Errors"). */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'EMPTY_BODY',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_CONTENT_LENGTH',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_BAD_URL: 'BAD_URL',
  FST_ERR_MAX_PARAM_LENGTH: 'URI_TOO_LONG',
};

const NOT_JSON =
  'the body must be JSON: send it with the header Content-Type: application/json (curl -d alone labels it application/x-www-form-urlencoded)';

/**
 * Our own words for framework refusals whose message would repeat the request URL (which may
 * carry a secret, and is not the client's to read back), or would not say what to send instead.
 */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'the URL path is not valid: a %-escape in it does not decode to UTF-8 text',
  FST_ERR_MAX_PARAM_LENGTH: PATH_PART_TOO_LONG,
  // "Unsupported Media Type" alone does not say what to send; curl -d without -H is the usual cause
  FST_ERR_CTP_INVALID_MEDIA_TYPE: NOT_JSON,
  FST_ERR_CTP_EMPTY_TYPE: NOT_JSON,
  FST_ERR_CTP_INVALID_TYPE: NOT_JSON,
};

/** Maps any thrown error to a status and an ErrorBody. */
export function toErrorResponse(thrown: unknown): { status: number; body: ErrorBody } {
  // a locked database or a full disk is neither the client's mistake nor a bug: 503 / 507
  const err = storageFault(thrown) ?? thrown;
  if (err instanceof KlebbError) {
    const body: ErrorBody = { error: err.message, code: err.code };
    if (err.details?.length) body.details = err.details;
    if (err.extra) for (const [k, v] of Object.entries(err.extra)) if (v !== undefined) body[k] = v;
    return { status: err.status, body };
  }
  const fe = err as FastifyError;
  if (fe?.validation) {
    const details = validationDetails(fe);
    return {
      status: 400,
      body: {
        error: details.map((d) => `${d.path} ${d.message}`).join('; ') || fe.message,
        code: 'BAD_REQUEST',
        details,
      },
    };
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return {
      status,
      body: {
        error: FRAMEWORK_MESSAGES[fe.code] ?? fe.message,
        code: FRAMEWORK_CODES[fe.code] ?? (status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST'),
      },
    };
  }
  return { status: 500, body: { error: 'Internal error: the change was not applied', code: 'INTERNAL' } };
}

/**
 * Fastify error handler using toErrorResponse. Only a real server fault (500 INTERNAL) is logged
 * at error level with its stack. A documented answer of 500 or more for a state of the server
 * (501 INGEST_DISABLED while no token is set, a chat endpoint that failed, a locked database, a
 * full disk) is one warn line with its status, code and message, without a stack: it is not a
 * bug to look for in the code. A 4xx answer (a refused upload, a wrong token, a field that does
 * not fit) is one info line with its status, code, message and field details: the same words
 * the client got, so whoever reads the log sees why a request was refused, not only its status
 * on the `request completed` line.
 */
export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  answerError(err, req, reply, (_status, body) => body);
}

/**
 * errorHandler with another body: `shape` turns the usual `{error, code, details?}` into what the
 * route's clients read (a JSON-RPC error object for `/mcp`). Status, headers and log are the same.
 */
export function answerError(
  err: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
  shape: (status: number, body: ErrorBody) => unknown,
): void {
  const { status, body } = toErrorResponse(err);
  if (status >= 500 && body.code === 'INTERNAL') req.log.error({ err }, 'request failed');
  else if (status >= 500) req.log.warn({ status, code: body.code }, body.error);
  else
    req.log.info({ status, code: body.code, ...(body.details ? { details: body.details } : {}) }, body.error);
  const fault = err instanceof RetryLaterError ? err : storageFault(err);
  if (fault instanceof RetryLaterError) reply.header('Retry-After', String(fault.retryAfterSeconds));
  if (status === 401) reply.header('WWW-Authenticate', bearerChallenge(req.headers.authorization));
  reply.status(status).type('application/json').send(shape(status, body));
}
