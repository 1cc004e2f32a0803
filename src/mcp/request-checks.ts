/**
 * Checks of a `/mcp` POST made before the SDK's transport sees it, for the refusals the transport
 * would answer with `id: null` (its error answers never repeat the request's id): a client that
 * cannot read the answers (its Accept header), a body that is not a JSON-RPC message, a request
 * outside a session that does not start one, a second initialize in a session, a protocol version
 * header the SDK does not speak. Ours carry the request's id. The transport's own checks stay
 * behind these.
 */
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../errors.js';
import { acceptedAnswers } from './accept.js';
import type { SessionEvents } from './event-log.js';
import { RPC_INVALID_PARAMS, RPC_INVALID_REQUEST, RPC_SERVER_ERROR } from './rpc-errors.js';

/** A refusal: HTTP status, JSON-RPC code, message and the catalogue's code (the error's `data.code`). */
export interface McpRefusal {
  status: number;
  rpcCode: number;
  message: string;
  code: ErrorCode;
  /** The field at fault, as the API names it (`body.params.arguments`). */
  details?: { path: string; message: string }[];
}

const refusal = (
  status: number,
  rpcCode: number,
  message: string,
  code: ErrorCode = 'BAD_REQUEST',
): McpRefusal => ({
  status,
  rpcCode,
  message,
  code,
});

/**
 * Why `req` cannot read what `/mcp` would answer, or null. A session answers as it was started:
 * with event streams when its initialize accepted them, else with one JSON object per request
 * (`jsonSession`); a request outside a session starts one, so it needs to accept either.
 */
export function acceptRefusal(req: FastifyRequest, jsonSession: boolean | undefined): McpRefusal | null {
  const answers = acceptedAnswers(req.raw);
  const needs =
    jsonSession === undefined
      ? answers.json || answers.eventStream
        ? null
        : 'application/json or text/event-stream'
      : jsonSession
        ? answers.json
          ? null
          : 'application/json (this session answers with JSON)'
        : answers.eventStream
          ? null
          : 'text/event-stream (this session answers with event streams; start a new one to get JSON)';
  if (!needs) return null;
  return refusal(
    406,
    RPC_SERVER_ERROR,
    `Not Acceptable: the Accept header must allow ${needs}`,
    'NOT_ACCEPTABLE',
  );
}

/**
 * What is wrong with POST `req` (its body parsed), or null when it may go on to the transport.
 * `jsonSession`: undefined outside a session, else whether the session answers with JSON;
 * `versions`: the protocol versions the SDK speaks; `sessionVersion`: the one the session's
 * initialize agreed on; `isMessage`: the SDK's test of one JSON-RPC message (a request, a
 * notification, a result or an error), which the transport would otherwise answer as a parse
 * error (-32700) without the request's id and without `data.code`.
 */
export function postRefusal(
  req: FastifyRequest,
  jsonSession: boolean | undefined,
  versions: readonly string[],
  sessionVersion: string | undefined,
  isMessage: (message: unknown) => boolean,
): McpRefusal | null {
  const inSession = jsonSession !== undefined;
  const notAcceptable = acceptRefusal(req, jsonSession);
  if (notAcceptable) return notAcceptable;
  const body = req.body;
  // an empty batch holds no message to answer; a batch of messages is left to the transport
  if (Array.isArray(body) && body.length === 0)
    return refusal(400, RPC_INVALID_REQUEST, 'Invalid Request: an empty batch; send one JSON-RPC message');
  if (Array.isArray(body)) return batchRefusal(req, sessionVersion, versions);
  const msg = body as { jsonrpc?: unknown; method?: unknown } | null;
  if (!msg || typeof msg !== 'object' || msg.jsonrpc !== '2.0')
    return refusal(
      400,
      RPC_INVALID_REQUEST,
      'Invalid Request: the body is not a JSON-RPC 2.0 message ("jsonrpc": "2.0")',
    );
  const initialize = msg.method === 'initialize';
  if (!inSession && !initialize)
    return refusal(
      400,
      RPC_SERVER_ERROR,
      'Bad Request: no session: start one with an initialize request, then send its Mcp-Session-Id',
    );
  if (inSession && initialize)
    return refusal(400, RPC_INVALID_REQUEST, 'Invalid Request: this session is already initialized');
  const call = msg.method === 'tools/call' ? toolCallProblem((msg as { params?: unknown }).params) : null;
  if (call) return call;
  const params = paramsRefusal(msg);
  if (params) return params;
  // "jsonrpc": "2.0" but no method, or an id that is null, true or an object
  if (!isMessage(msg))
    return refusal(
      400,
      RPC_INVALID_REQUEST,
      'Invalid Request: the body is not a JSON-RPC 2.0 message: a request needs a method (a string) and an id that is a string or a number; a notification a method and no id',
    );
  return inSession ? versionRefusal(req, versions) : null;
}

/** The first protocol version without JSON-RPC batches (versions are dates, so they sort as text). */
const BATCHES_REMOVED_IN = '2025-06-18';

/**
 * Why a batch (a JSON array of messages) cannot be taken, or null when it may go on: MCP had
 * batches in 2025-03-26 only and removed them in 2025-06-18, so a session speaking that version
 * or a later one refuses one, saying so, rather than answering it as if the version had them.
 * The version is the one the session's initialize agreed on: the header only says which version
 * the client means to speak and should repeat that one, so a header naming an older version
 * (a proxy or a client that sends a fixed one) does not bring batches back to a later session;
 * a header naming a later version than agreed counts as that one. A batch outside a session is
 * refused too: a session starts with an initialize sent alone.
 */
function batchRefusal(
  req: FastifyRequest,
  sessionVersion: string | undefined,
  versions: readonly string[],
): McpRefusal | null {
  if (sessionVersion === undefined)
    return refusal(
      400,
      RPC_INVALID_REQUEST,
      'Invalid Request: a batch cannot start a session; send the initialize request on its own',
    );
  const header = req.headers['mcp-protocol-version'];
  const claimed = typeof header === 'string' && versions.includes(header) ? header : sessionVersion;
  // versions are dates, so the later one sorts last as text
  const version = claimed > sessionVersion ? claimed : sessionVersion;
  if (version < BATCHES_REMOVED_IN) return null;
  return refusal(
    400,
    RPC_INVALID_REQUEST,
    `Invalid Request: JSON-RPC batches were removed from MCP in protocol version ${BATCHES_REMOVED_IN}, and this session speaks ${version}; send each message in a request of its own`,
  );
}

/**
 * Why the `MCP-Protocol-Version` header of a request in a session cannot be served, or null: a
 * value the SDK does not speak (a misspelt or future version, an empty one) is 400 naming it,
 * on every method (a GET opening the stream, a DELETE ending the session) as on a POST. No
 * header at all is fine: the transport then assumes the oldest version that has the header.
 */
export function versionRefusal(req: FastifyRequest, versions: readonly string[]): McpRefusal | null {
  const version = req.headers['mcp-protocol-version'];
  if (version === undefined) return null;
  const given = Array.isArray(version) ? version.join(', ') : version;
  if (typeof version === 'string' && versions.includes(version)) return null;
  return {
    ...refusal(
      400,
      RPC_SERVER_ERROR,
      `Bad Request: unsupported MCP-Protocol-Version "${given}" (supported: ${versions.join(', ')})`,
    ),
    details: [
      { path: 'headers.mcp-protocol-version', message: 'is not a protocol version this server speaks' },
    ],
  };
}

/**
 * What is wrong with a GET (opening the session's event stream) or DELETE (ending the session)
 * in a session, or null: the protocol version header as for a POST, and for a GET an Accept
 * header that allows `text/event-stream`, the only thing it can answer.
 */
export function streamRefusal(req: FastifyRequest, versions: readonly string[]): McpRefusal | null {
  const version = versionRefusal(req, versions);
  if (version) return version;
  if (req.method === 'GET' && !acceptedAnswers(req.raw).eventStream)
    return refusal(
      406,
      RPC_SERVER_ERROR,
      'Not Acceptable: the Accept header must allow text/event-stream (a GET opens the event stream)',
      'NOT_ACCEPTABLE',
    );
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What is wrong with the params of a tools/call, or null: they must be an object naming the tool
 * (`name`, a string) with its `arguments` an object when given. The SDK would answer such a call
 * -32603, an internal error, with its validator's dump; it is the client's mistake, so it is
 * -32602 (invalid params) naming the field. `path` as the request holds it (`params.name`); over
 * HTTP the API's names put `body.` before it.
 */
export function toolCallParamsProblem(params: unknown): { path: string; what: string } | null {
  if (!isRecord(params)) return { path: 'params', what: 'an object with the tool name and its arguments' };
  if (typeof params.name !== 'string') return { path: 'params.name', what: 'the name of a tool (a string)' };
  if (params.arguments !== undefined && !isRecord(params.arguments))
    return { path: 'params.arguments', what: "an object of the tool's arguments" };
  return null;
}

/**
 * What is wrong with the params of a request or notification that is otherwise a JSON-RPC
 * message (a method, an id that is a string or a number, or none), or null: MCP gives params by
 * name (an object), its `_meta` is an object whose `progressToken` is a string or a number, and an
 * initialize names the protocol version (a string), the client's capabilities (an object) and the
 * client (`clientInfo` with `name` and `version`). The SDK reads such a message as no JSON-RPC
 * message at all (-32600, or for an initialize "Server not initialized" without the request's id);
 * it is the caller's mistake in the params: -32602 naming the field.
 */
export function paramsProblem(method: string, params: unknown): { path: string; what: string } | null {
  const init = method === 'initialize';
  if (params === undefined)
    return init
      ? { path: 'params', what: 'an object with protocolVersion, capabilities and clientInfo' }
      : null;
  if (!isRecord(params)) return { path: 'params', what: 'an object (MCP names every parameter)' };
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isRecord(meta)) return { path: 'params._meta', what: 'an object' };
    const token = meta.progressToken;
    if (token !== undefined && typeof token !== 'string' && typeof token !== 'number')
      return { path: 'params._meta.progressToken', what: 'a string or a number' };
  }
  if (!init) return null;
  if (typeof params.protocolVersion !== 'string')
    return {
      path: 'params.protocolVersion',
      what: 'the protocol version the client speaks (a string, "2025-06-18")',
    };
  if (!isRecord(params.capabilities)) return { path: 'params.capabilities', what: 'an object' };
  const info = params.clientInfo;
  if (!isRecord(info))
    return { path: 'params.clientInfo', what: 'an object with the name and version of the client' };
  if (typeof info.name !== 'string') return { path: 'params.clientInfo.name', what: 'a string' };
  if (typeof info.version !== 'string') return { path: 'params.clientInfo.version', what: 'a string' };
  return null;
}

/** paramsProblem as the HTTP route's refusal, for a message with a method and a usable id. */
function paramsRefusal(msg: { method?: unknown; id?: unknown; params?: unknown }): McpRefusal | null {
  if (typeof msg.method !== 'string') return null;
  const id = msg.id;
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id)))
    return null;
  const problem = paramsProblem(msg.method, msg.params);
  if (!problem) return null;
  const path = `body.${problem.path}`;
  return {
    ...refusal(400, RPC_INVALID_PARAMS, `Invalid params: ${path} must be ${problem.what}`),
    details: [{ path, message: `must be ${problem.what}` }],
  };
}

/** toolCallParamsProblem as the HTTP route's refusal, its field named `body.params…`. */
function toolCallProblem(params: unknown): McpRefusal | null {
  const problem = toolCallParamsProblem(params);
  if (!problem) return null;
  const path = `body.${problem.path}`;
  return {
    ...refusal(400, RPC_INVALID_PARAMS, `Invalid params: ${path} must be ${problem.what}`),
    details: [{ path, message: `must be ${problem.what}` }],
  };
}

/**
 * Why a GET reconnecting with `Last-Event-ID` cannot be answered, or null: the session no longer
 * keeps that event (too much was sent since, or the id was never sent by it) or keeps none (a
 * session answering with JSON). 400 naming the header, so the client knows what it missed is
 * lost and asks again, rather than a new stream that silently never brings the missed answer.
 */
export function replayRefusal(req: FastifyRequest, events: SessionEvents | undefined): McpRefusal | null {
  const last = req.headers['last-event-id'];
  if (req.method !== 'GET' || last === undefined) return null;
  if (typeof last === 'string' && events?.has(last)) return null;
  const why = events
    ? 'this session no longer keeps that event (it keeps the newest messages only)'
    : 'this session answers with JSON and keeps no events';
  return {
    ...refusal(
      400,
      RPC_SERVER_ERROR,
      `Bad Request: cannot resume after Last-Event-ID ${JSON.stringify(String(last))}: ${why}; what came after it is lost, send those requests again`,
    ),
    details: [{ path: 'headers.last-event-id', message: 'names no event this session keeps' }],
  };
}
