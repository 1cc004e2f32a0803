/**
 * MCP requests read over stdio are checked on their text before the SDK parses them, as `/mcp`
 * bodies are by the JSON body parser: a number JavaScript would not keep as written (`1e999`,
 * an integer past 2^53 - 1, more digits than a double holds) is refused naming its field, never
 * handed to a tool changed. The answer is the JSON-RPC error `/mcp` gives (-32602, our message,
 * `{code: 'NUMBER_OUT_OF_RANGE', details}` as its data), with the request's id.
 */

import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { jsonNumberProblem } from '../common/json-text.js';
import { paramsProblem, toolCallParamsProblem } from './request-checks.js';

/** JSON-RPC "invalid params", the code `/mcp` answers a refused number with. */
export const NUMBER_REFUSAL_RPC_CODE = -32602;

/**
 * The JSON-RPC error answering one line of JSON-RPC text, or null when the line may go on to the
 * SDK (its numbers are kept as written, it is not JSON, which the SDK answers itself, or it is a
 * notification, which gets no answer).
 */
export function numberRefusalOf(line: string): object | null {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return null;
  }
  const id = (message as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  const problem = jsonNumberProblem(line);
  if (!problem) return null;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: NUMBER_REFUSAL_RPC_CODE,
      message: `${problem.path} ${problem.message}`,
      data: { code: 'NUMBER_OUT_OF_RANGE', details: [problem] },
    },
  };
}

/**
 * The JSON-RPC parse error (-32700, id null) for a line that is not JSON, else null (a blank line
 * is passed on). The SDK's stdio transport drops such a line without answering, so a client
 * that sent a broken message would wait for ever; over HTTP the same line is answered -32700.
 */
export function notJsonRefusalOf(line: string) {
  if (line.trim() === '') return null;
  try {
    JSON.parse(line);
    return null;
  } catch (err) {
    return {
      jsonrpc: '2.0' as const,
      id: null,
      error: { code: -32700, message: `Parse error: the line is not JSON (${(err as Error).message})` },
    };
  }
}

/**
 * The answer to a line that is a JSON-RPC request or notification but whose params do not have
 * the shape MCP gives them (not an object, a `_meta` that is not one, an initialize without its
 * fields: request-checks.ts says which): -32602 with data {code: BAD_REQUEST, path} and the
 * line's id, as over HTTP, instead of -32600 "not a JSON-RPC message" or the SDK's -32603. Null
 * for any other line.
 */
export function paramsRefusalOf(line: string) {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return null;
  const msg = message as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
  if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') return null;
  const id = msg.id;
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id)))
    return null;
  const problem = paramsProblem(msg.method, msg.params);
  if (!problem) return null;
  return {
    jsonrpc: '2.0' as const,
    id: id ?? null,
    error: {
      code: -32602,
      message: `Invalid params: ${problem.path} must be ${problem.what}`,
      data: { code: 'BAD_REQUEST', path: problem.path },
    },
  };
}

/**
 * The JSON-RPC "invalid request" error (-32600) for a line of JSON that is not one JSON-RPC 2.0
 * message (no `"jsonrpc": "2.0"`, no method on a request, a batch, which stdio does not carry),
 * else null. The SDK's stdio transport drops such a line without answering; over HTTP it is
 * answered -32600. The answer repeats the line's id when it holds one, so the client can tell
 * which request failed.
 */
export function notMessageRefusalOf(line: string) {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return null;
  }
  if (JSONRPCMessageSchema.safeParse(message).success) return null;
  const id = (message as { id?: unknown } | null)?.id;
  return {
    jsonrpc: '2.0' as const,
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: {
      code: -32600,
      message: Array.isArray(message)
        ? 'Invalid Request: a batch; over stdio send one JSON-RPC message a line'
        : 'Invalid Request: the line is not a JSON-RPC 2.0 message ("jsonrpc": "2.0" and a method, or a result or error with an id)',
    },
  };
}

/**
 * The answer to a tools/call line whose params do not name a tool or give arguments that are not
 * an object (request-checks.ts says which): -32602 with data {code: BAD_REQUEST, path}, as over
 * HTTP, instead of the SDK's -32603 with its validator's dump. Null for any other line.
 */
export function toolCallRefusalOf(line: string) {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return null;
  }
  const msg = message as { method?: unknown; id?: unknown; params?: unknown };
  if (msg.method !== 'tools/call') return null;
  const problem = toolCallParamsProblem(msg.params);
  if (!problem) return null;
  return {
    jsonrpc: '2.0' as const,
    id: typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null,
    error: {
      code: -32602,
      message: `Invalid params: ${problem.path} must be ${problem.what}`,
      data: { code: 'BAD_REQUEST', path: problem.path },
    },
  };
}

/** A byte order mark starting a line: JSON text may not hold one, and a reader may skip it. */
const BOM_AT_START = /^\uFEFF/;

/** The answer to a line longer than `maxBytes`, whose id is not read (the line is not kept). */
export function tooLongRefusal(maxBytes: number) {
  return {
    jsonrpc: '2.0' as const,
    id: null,
    error: {
      code: -32600,
      message: `Invalid Request: the line is longer than ${maxBytes} bytes; send a smaller message`,
    },
  };
}

/**
 * A stream between stdin and the SDK's stdio transport: passes newline-delimited messages on,
 * except those `notJsonRefusalOf`, `paramsRefusalOf`, `notMessageRefusalOf` or `numberRefusalOf` refuses, whose
 * answer goes to `answer` (a line of JSON) instead. A byte order mark before a line is dropped.
 * A line longer than `maxLineBytes` is not kept: it is read to its end and answered with
 * `tooLongRefusal` (the SDK would drop it without an answer, and memory would grow with it).
 */
export function numberCheckedLines(answer: (line: string) => void, maxLineBytes: number): Transform {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let pendingBytes = 0;
  let tooLong = false;
  const pass = (stream: Transform, text: string) => {
    // a byte order mark some Windows tools write before the text is no part of the message
    const line = text.replace(BOM_AT_START, '');
    const refusal =
      notJsonRefusalOf(line) ??
      paramsRefusalOf(line) ??
      notMessageRefusalOf(line) ??
      toolCallRefusalOf(line) ??
      numberRefusalOf(line.replace(/\r$/, ''));
    if (refusal) answer(`${JSON.stringify(refusal)}\n`);
    else stream.push(`${line}\n`);
  };
  /** Adds `part` to the line under way, dropping the line once it is too long. */
  const collect = (part: string) => {
    if (tooLong) return;
    pending += part;
    pendingBytes += Buffer.byteLength(part);
    if (pendingBytes > maxLineBytes) {
      tooLong = true;
      pending = '';
    }
  };
  /** Ends the line under way at a newline. */
  const endLine = (stream: Transform) => {
    if (tooLong) answer(`${JSON.stringify(tooLongRefusal(maxLineBytes))}\n`);
    else pass(stream, pending);
    pending = '';
    pendingBytes = 0;
    tooLong = false;
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let text = decoder.write(chunk);
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
        collect(text.slice(0, nl));
        endLine(this);
        text = text.slice(nl + 1);
      }
      collect(text);
      done();
    },
    flush(done: TransformCallback) {
      collect(decoder.end());
      // the last line may lack its newline (`printf '{...}' | npm run mcp`): stdin's end ends it,
      // so it is checked and answered like any other instead of left unread by the transport
      if (pending.trim() !== '' || tooLong) endLine(this);
      done();
    },
  });
}
