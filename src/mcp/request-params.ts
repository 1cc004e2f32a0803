/**
 * Requests whose params do not have the shape MCP gives them (`prompts/get` without `name`,
 * `resources/read` without `uri`): answered -32602 Invalid params naming the field, as JSON-RPC
 * classes a caller's mistake. The SDK checks a request against its schema before any handler
 * runs and, when it does not fit, answers -32603 Internal error with the checker's whole report
 * as the message, which reads as a fault of the server. So such a handler is registered for its
 * method alone and the params are checked here.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A schema that any request of `method` fits, whatever its params; its handler checks them. */
export function anyParams<M extends string>(method: M) {
  return z.object({ method: z.literal(method) }).loose();
}

/**
 * `request` as `schema` reads it; else throws -32602 with data `{code: 'BAD_REQUEST', path}`,
 * the path of the first field that does not fit (`params.name`) and what it should be.
 */
export function checkedRequest<T>(schema: z.ZodType<T>, request: unknown): T {
  const read = schema.safeParse(request);
  if (read.success) return read.data;
  const issue = read.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') || 'params' : 'params';
  const method = (request as { method?: unknown }).method;
  throw new McpError(
    ErrorCode.InvalidParams,
    `Invalid ${String(method)} request: ${path}: ${issue?.message ?? 'invalid'}`,
    {
      code: 'BAD_REQUEST',
      path,
    },
  );
}

/**
 * The params of a list request (`tools/list`, `resources/list`, `resources/templates/list`,
 * `prompts/list`): none, or an object whose `cursor`, when given, is one this server handed
 * out. Klebb answers every list whole and hands out no cursor, so any cursor (a foreign one,
 * one from another server, a number) is invalid: -32602 naming `params.cursor`, as MCP asks of
 * an invalid cursor, rather than a first page that a client paging on would take for the next.
 */
export function checkListParams(request: unknown): void {
  const method = String((request as { method?: unknown }).method);
  const params = (request as { params?: unknown }).params;
  if (params === undefined) return;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: params: must be an object`, {
      code: 'BAD_REQUEST',
      path: 'params',
    });
  const cursor = (params as { cursor?: unknown }).cursor;
  if (cursor === undefined) return;
  throw new McpError(
    ErrorCode.InvalidParams,
    `Invalid ${method} request: params.cursor: ${JSON.stringify(cursor)} is not a cursor this server gave; its lists come whole, ask again without a cursor`,
    { code: 'BAD_REQUEST', path: 'params.cursor' },
  );
}
