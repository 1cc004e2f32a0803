/**
 * The product's error tree: every error a request can end in is a KlebbError with an HTTP
 * status and a stable `code`. One handler (src/http/error-handler.ts) turns it into
 * `{error, code, details?}`. Route handlers never build error responses by hand.
 */

/** One problem with one field of an input. `path` is a dotted/JSON-pointer-like location ("meta.id"). */
export interface FieldError {
  path: string;
  message: string;
}

/** Base class: `status` is the HTTP status, `code` a stable machine-readable name. */
export class KlebbError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: FieldError[],
    /** Extra top-level properties for the JSON body (e.g. row errors add `path` and `id`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'KlebbError';
  }
}

/** 400: the request is malformed (bad JSON, wrong `$schema`, missing required field). */
export const badRequest = (message: string, details?: FieldError[], code = 'BAD_REQUEST') =>
  new KlebbError(400, code, message, details);

/** 401: no or wrong credentials. */
export const unauthorized = (message = 'Unauthorized') => new KlebbError(401, 'UNAUTHORIZED', message);

/** 403: authenticated, but this write is not allowed (e.g. `meta.writeable.fromWebapp` is not true). */
export const forbidden = (message: string, code = 'FORBIDDEN') => new KlebbError(403, code, message);

/** 404: the named thing does not exist. */
export const notFound = (message: string, code = 'NOT_FOUND', extra?: Record<string, unknown>) =>
  new KlebbError(404, code, message, undefined, extra);

/** 409: the request conflicts with current state (duplicate id, a running turn). */
export const conflict = (message: string, code = 'CONFLICT') => new KlebbError(409, code, message);

/** 412: an `If-Match` precondition no longer holds (RFC 9110 §13.1.1). */
export const preconditionFailed = (message: string) => new KlebbError(412, 'PRECONDITION_FAILED', message);

/** 413: the body is larger than allowed. */
export const payloadTooLarge = (message: string) => new KlebbError(413, 'PAYLOAD_TOO_LARGE', message);

/** 422: well-formed but invalid content; `details` names each bad field. */
export const invalid = (message: string, details?: FieldError[], code = 'INVALID') =>
  new KlebbError(422, code, message, details);

/** 503: a service this request needs is not configured or not available. */
export const unavailable = (message: string, code = 'UNAVAILABLE') => new KlebbError(503, code, message);

/**
 * Row-path errors: BAD_PATH 400, NO_MATCH 404, AMBIGUOUS 409,
 * WRONG_TYPE 422, ORDER_MISMATCH 422. The body carries `code`, `path` and the card `id`.
 */
export type RowErrorCode = 'BAD_PATH' | 'NO_MATCH' | 'AMBIGUOUS' | 'WRONG_TYPE' | 'ORDER_MISMATCH';

const ROW_ERROR_STATUS: Record<RowErrorCode, number> = {
  BAD_PATH: 400,
  NO_MATCH: 404,
  AMBIGUOUS: 409,
  WRONG_TYPE: 422,
  ORDER_MISMATCH: 422,
};

/** A row operation failed; `path` is the row path as given, `id` the card id when known. */
export class RowError extends KlebbError {
  constructor(
    readonly rowCode: RowErrorCode,
    message: string,
    readonly rowPath: string,
    readonly cardId?: string,
  ) {
    super(ROW_ERROR_STATUS[rowCode], rowCode, message, undefined, { path: rowPath, id: cardId });
    this.name = 'RowError';
  }
}
