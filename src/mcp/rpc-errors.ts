/**
 * Every error `/mcp` answers is a JSON-RPC error object, as MCP clients read them, whatever
 * refused the request (the body checks, its content type, the home's freeze, a session problem):
 * `{jsonrpc: "2.0", error: {code, message, data: {code, details?}}, id}`, with the HTTP status
 * and headers (Retry-After, WWW-Authenticate) of the API's own answer. `id` repeats the
 * request's id whenever its body was read and held one (JSON-RPC 2.0 allows null only when it could
 * not be told), so a client can match the error to its request; `data.code` is the catalogue's
 * code (src/errors.ts). A 401 is the exception: it answers the HTTP exchange, before any message
 * was read, with the API's `{error, code}` and the WWW-Authenticate challenge an MCP client's
 * authorisation step reads, as bearer-token middleware does.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { heldRefusalOf } from '../auth/held-refusal.js';
import { lookupTable } from '../common/lookup-table.js';
import { answerError, type ErrorBody } from '../http/error-handler.js';
import { refusedBodyOf } from '../http/refused-body.js';

/** A JSON-RPC request id. */
export type RpcId = string | number | null;

/** JSON-RPC "parse error", "invalid request", "invalid params"; -32000 is a server error. */
export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_SERVER_ERROR = -32000;

/** JSON-RPC codes for our codes: unreadable text is a parse error, a number out of range bad params. */
const RPC_CODES = lookupTable<number>({
  INVALID_JSON: RPC_PARSE_ERROR,
  INVALID_UTF8: RPC_PARSE_ERROR,
  EMPTY_BODY: RPC_PARSE_ERROR,
  BAD_CONTENT_ENCODING: RPC_PARSE_ERROR,
  NUMBER_OUT_OF_RANGE: RPC_INVALID_PARAMS,
});

/** Clearer words than the framework's for refusals an MCP client meets when it is set up wrong. */
const MCP_MESSAGES = lookupTable<string>({
  UNSUPPORTED_MEDIA_TYPE:
    'Unsupported Media Type: an MCP message is a JSON-RPC object sent with Content-Type: application/json',
  EMPTY_BODY: 'Parse error: the body is empty; send one JSON-RPC message',
});

/** The id of a JSON-RPC request `body` (one message, not a batch), or null. */
export function rpcIdOf(body: unknown): RpcId {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A JSON-RPC error response. */
export function rpcErrorBody(id: RpcId, code: number, message: string, data?: object): object {
  return { jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id };
}

/** The id of the request `req` carried, read from its body when it was read (refused or not). */
export function requestRpcId(req: FastifyRequest): RpcId {
  return rpcIdOf(req.body ?? refusedBodyOf(req));
}

/** Error handler of the `/mcp` routes (see the file comment). */
export function mcpErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  // a rate limit passed before the body arrived is the answer, whatever the body's own fault
  answerError(heldRefusalOf(req) ?? err, req, reply, (status, body: ErrorBody) =>
    status === 401
      ? body
      : rpcErrorBody(
          requestRpcId(req),
          RPC_CODES[body.code] ?? RPC_SERVER_ERROR,
          MCP_MESSAGES[body.code] ?? body.error,
          {
            code: body.code,
            ...(body.details ? { details: body.details } : {}),
          },
        ),
  );
}
