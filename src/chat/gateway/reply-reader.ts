/**
 * Reading one response body, whatever it turns out to be. A non-2xx body is an error body; a
 * 2xx body is sniffed rather than trusted by Content-Type (an event stream never starts with
 * '{', '[' or '<'): JSON goes to the buffered reader, anything else to the SSE reader and the
 * stream assembler. A stream of JSON lines (one object per line, no SSE framing) goes to the
 * JSON-lines reader and the same assembler: when it is labelled so (application/x-ndjson,
 * application/jsonl ...), or when a body that starts like JSON turns out to hold a whole object
 * on its first line and more after it. Bytes are decoded with a streaming UTF-8 decoder, so a
 * character split across network reads is never mangled.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { GATEWAY_MAX_BODY_BYTES, GATEWAY_MAX_ERROR_BODY_BYTES } from '../../limits.js';
import { parseBufferedCompletion } from './buffered.js';
import { classifyHttpError } from './classify.js';
import { looksLikeHtml } from './error-body.js';
import { GatewayError } from './gateway-error.js';
import { createJsonLinesReader, looksLikeJsonLines } from './json-lines-reader.js';
import { createSseReader, SseTooLarge } from './sse-reader.js';
import { createStreamAssembler } from './stream-assembler.js';
import type { GatewayHooks, GatewayResult } from './types.js';

/** What the reader found out so far; `emittedText` forbids a retry (the text would show twice). */
export interface ReadProgress {
  emittedText: boolean;
}

/** An incremental reader of one response body. */
export interface ReplyReader {
  /** Feeds body bytes; returns the reply once it is complete (e.g. `[DONE]`), else undefined. Throws GatewayError. */
  push(chunk: Buffer): GatewayResult | undefined;
  /** The body ended (`eof`) or the connection died (`reset`): the reply, or a GatewayError thrown. */
  end(how: 'eof' | 'reset'): GatewayResult;
  /** Answer text received so far (for a timeout's partial text). */
  partialText(): string;
  /**
   * True once a streamed reply has every choice's finish_reason (it may end without `[DONE]`), or
   * a JSON body is one complete value (its connection may stay open past it).
   */
  finished(): boolean;
  /** Settles a finished stream, or a complete JSON body, whose transport never ended. */
  finishNow(): GatewayResult;
  /** How many pieces of a streamed reply were read so far (0 for a JSON body). */
  pieces(): number;
  /**
   * True when the body read so far is a whole reply: a complete JSON value, or a stream that
   * finished; an error body always is. The transport asks when a declared length ran out.
   */
  whole(): boolean;
}

type Mode = 'undecided' | 'sse' | 'lines' | 'buffered' | 'error';

/** How an event stream starts: a comment or a field name and its colon. */
const SSE_LEAD = /^(?::|(?:data|event|id|retry|error)\s*:)/;
/** Content types of a stream of JSON lines. */
const JSON_LINES_TYPE = /nd-?json|jsonl|json-lines/;
/** Characters enough to see whether a body starts with an SSE field. */
const SSE_FIELD_PROBE = 6;

/** Inputs of a reader: the response head, whether a stream was asked for, the hooks. */
export interface ReplyReaderInit {
  status: number;
  headers: IncomingHttpHeaders;
  streaming: boolean;
  hooks: GatewayHooks;
  progress: ReadProgress;
  /** The model is known to open inline reasoning in its prompt. */
  reasoningStartsInside?: boolean;
  /** Names of the tools the request offered. */
  offeredTools?: ReadonlySet<string>;
  /** The request asked for usage in the stream (`stream_options.include_usage`). */
  awaitUsage?: boolean;
}

/** True when `text` is one complete JSON value (a body that arrived whole). */
function wholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Bodies longer than this are not parsed early to see whether they are whole, chars. */
const EARLY_JSON_CHECK_MAX = 1024 * 1024;

/**
 * True when `text` is one complete JSON value, checked only when it ends as one could (with `}`,
 * `]` or `"`) and is not large, so a body arriving in many pieces is not parsed again at every piece.
 */
function endsWholeJson(text: string): boolean {
  if (text.length > EARLY_JSON_CHECK_MAX) return false;
  const last = text.trimEnd().slice(-1);
  return (last === '}' || last === ']' || last === '"') && wholeJson(text);
}

/** True when `text` is the start of a JSON value that ended too soon (not junk). */
function cutJson(text: string): boolean {
  const t = text.trim();
  if (t[0] !== '{' && t[0] !== '[') return false;
  try {
    JSON.parse(t);
    return false;
  } catch (err) {
    // the parser stopped for want of more text: at the end of input, or inside a string
    const message = String((err as Error).message);
    const at = /position (\d+)/.exec(message);
    return /end of JSON input|Unterminated/i.test(message) || (at !== null && Number(at[1]) >= t.length);
  }
}

/**
 * The failure of a JSON reply whose body ended before its JSON did: said as cut off, with what a
 * Content-Length declared when there was one, and worth asking again.
 */
function cutReply(status: number, received: number, declared: number): GatewayError {
  const of = Number.isFinite(declared) && declared > 0 ? ` (${received} of ${declared} declared bytes)` : '';
  return new GatewayError('unavailable', `the gateway reply was cut off before its end${of}`, {
    reason: 'truncated',
    upstreamStatus: status,
    retryable: true,
  });
}

/** Creates the reader for one response. */
export function createReplyReader(init: ReplyReaderInit): ReplyReader {
  const { status, headers, streaming, hooks, progress } = init;
  const options = { reasoningStartsInside: init.reasoningStartsInside, offeredTools: init.offeredTools };
  const contentType = String(headers['content-type'] ?? '').toLowerCase();
  const decoder = new TextDecoder('utf-8');
  let mode: Mode = status < 200 || status >= 300 ? 'error' : 'undecided';
  let text = ''; // buffered / error body, or the undecided lead-in
  let textBytes = 0;
  let received = 0; // body bytes, however read
  let result: GatewayResult | undefined;
  // a body read as JSON may still turn out to be JSON lines, until its first line is known
  let maybeLines = false;

  // a stream that answers a buffered request (the server ignored stream:false) shows nothing
  // as it arrives: its text is the reply's, so a failure half-way may still be retried
  const assembler = createStreamAssembler(
    streaming
      ? {
          ...hooks,
          onToken: (t) => {
            progress.emittedText = true;
            hooks.onToken?.(t);
          },
        }
      : { ...hooks, onToken: undefined, onReasoning: undefined, onRetract: undefined },
    options,
  );
  // `[DONE]` came before any usage: later events are read for their usage only, since some
  // servers send the usage chunk after the end marker
  let afterDone = false;
  const onEvent = (data: string, parsed?: unknown, event?: string): boolean => {
    if (afterDone) {
      assembler.pushTrailer(data, parsed);
      return false;
    }
    if (!assembler.push(data, parsed, event)) return false;
    if (assembler.hasUsage) return true;
    afterDone = true;
    return false;
  };
  const sse = createSseReader({
    onData: onEvent,
    onComment: (comment) => hooks.onKeepAlive?.(comment),
  });

  const lines = createJsonLinesReader({ onData: onEvent });

  /**
   * After `[DONE]`, the reply is settled once what already arrived was read, unless usage was
   * asked for and has not come: then it waits for the usage, the end of the body, or the finish
   * grace (attempt.ts), whichever is first.
   */
  const settledAfterDone = () => afterDone && (assembler.hasUsage || !init.awaitUsage);

  const feedStream = (piece: string, last = false): GatewayResult | undefined => {
    const reader = mode === 'lines' ? lines : sse;
    try {
      const ended = reader.feed(piece) || (last && reader.end());
      if (ended || settledAfterDone() || (last && afterDone)) result = assembler.finish('done');
    } catch (err) {
      if (!(err instanceof SseTooLarge)) throw err;
      throw new GatewayError('parse', err.message, {
        reason: 'too_large',
        partialText: assembler.text || undefined,
      });
    }
    return result;
  };

  const finishBuffered = (): GatewayResult => {
    // a JSON reply labelled text/html (PHP's default type, relays that set none) is still the reply
    if (looksLikeHtml(text) || (contentType.includes('html') && !wholeJson(text)))
      throw classifyHttpError(status, headers, text);
    const reply = parseBufferedCompletion(text, hooks, options);
    if (streaming) {
      // a gateway that ignored stream:true: its text still goes out through the hooks
      if (reply.reasoning) hooks.onReasoning?.(reply.reasoning);
      if (reply.text) {
        progress.emittedText = true;
        hooks.onToken?.(reply.text);
      }
    }
    return reply;
  };

  /** A body being read as JSON that turns out to be JSON lines switches to the line reader. */
  const checkLines = (): GatewayResult | undefined => {
    if (!maybeLines) return undefined;
    const verdict = looksLikeJsonLines(text.trimStart());
    if (verdict === undefined) return undefined;
    maybeLines = false;
    if (!verdict) return undefined;
    mode = 'lines';
    const body = text;
    text = '';
    return feedStream(body);
  };

  return {
    partialText: () => assembler.text,
    finished: () =>
      ((mode === 'sse' || mode === 'lines') && (afterDone || assembler.finished())) ||
      ((mode === 'buffered' || mode === 'error') && endsWholeJson(text)),
    whole: () => {
      if (mode === 'error') return true;
      if (mode === 'buffered') return wholeJson(text);
      return (
        result !== undefined || ((mode === 'sse' || mode === 'lines') && (afterDone || assembler.finished()))
      );
    },
    finishNow: () => {
      // a JSON body whose declared length never came (a server holding the connection open)
      if (mode === 'error') throw classifyHttpError(status, headers, text);
      if (mode === 'buffered') result ??= finishBuffered();
      result ??= assembler.finish('done');
      return result;
    },
    pieces: () => assembler.pieces,

    push(chunk: Buffer): GatewayResult | undefined {
      if (result) return result;
      received += chunk.length;
      const piece = decoder.decode(chunk, { stream: true });
      if (mode === 'undecided') {
        text += piece;
        const lead = text.trimStart();
        if (lead === '') return undefined;
        // the body decides, not the label: an event stream sent as application/json is still a
        // stream; any other body with a JSON content type is read as JSON (then it is unreadable,
        // not a cut-off stream)
        const jsonTyped = contentType.includes('json') && !contentType.includes('event-stream');
        // a JSON string (`"{\"id\":...}"`) is a reply encoded twice, never an event stream
        const structural = lead[0] === '{' || lead[0] === '[' || lead[0] === '<' || lead[0] === '"';
        if (jsonTyped && !structural && lead.length < SSE_FIELD_PROBE && !/[\r\n]/.test(lead))
          return undefined;
        mode = structural || (jsonTyped && !SSE_LEAD.test(lead)) ? 'buffered' : 'sse';
        if (mode === 'buffered' && JSON_LINES_TYPE.test(contentType) && lead[0] !== '<') mode = 'lines';
        if (mode === 'sse' || mode === 'lines') {
          const leadIn = text;
          text = '';
          return feedStream(leadIn);
        }
        maybeLines = lead[0] === '{';
        textBytes = Buffer.byteLength(text);
        return checkLines();
      }
      if (mode === 'sse' || mode === 'lines') return feedStream(piece);
      const cap = mode === 'error' ? GATEWAY_MAX_ERROR_BODY_BYTES : GATEWAY_MAX_BODY_BYTES;
      textBytes += chunk.length;
      text += piece;
      if (textBytes > cap) {
        if (mode === 'error') throw classifyHttpError(status, headers, text);
        throw new GatewayError('parse', `the gateway reply is larger than ${cap} bytes`, {
          reason: 'too_large',
        });
      }
      return mode === 'buffered' ? checkLines() : undefined;
    },

    end(how: 'eof' | 'reset'): GatewayResult {
      if (result) return result;
      const tail = decoder.decode();
      if (mode === 'error') throw classifyHttpError(status, headers, text + tail);
      if (mode === 'lines') return feedStream(tail, true) ?? assembler.finish(how);
      if (mode === 'sse' || (mode === 'undecided' && (text + tail).trim() !== '')) {
        if (mode === 'undecided') {
          mode = 'sse';
          const early = feedStream(text);
          if (early) return early;
        }
        const done = feedStream(tail, true);
        if (done) return done;
        if (how === 'eof' && sse.notAStream()) {
          // a whole body arrived and none of it was an event: not a stream at all
          throw new GatewayError('parse', 'the gateway reply is neither JSON nor an event stream', {
            reason: 'not_a_stream',
            upstreamStatus: status,
          });
        }
        return assembler.finish(how);
      }
      if (mode === 'undecided') {
        throw new GatewayError('unavailable', 'the gateway answered with an empty body', {
          reason: how === 'reset' ? 'connection_reset' : 'empty_body',
          upstreamStatus: status,
          retryable: true,
        });
      }
      text += tail;
      // a connection that dies after the whole reply arrived (the chunked body's last empty chunk
      // never came, or a Content-Length larger than what the proxy sent) still delivered the reply
      if (!wholeJson(text)) {
        const declared = Number(headers['content-length']);
        if (how === 'reset' && !(declared > received)) {
          throw new GatewayError('unavailable', 'the gateway connection dropped mid-reply', {
            reason: 'connection_reset',
            upstreamStatus: status,
            retryable: true,
          });
        }
        // a body that met its declared length exactly is what the server meant to send: unreadable
        // (below); one that did not, or declared none (chunked, or ended by closing), and stops
        // inside its JSON was cut off on the way: a proxy whose upstream died mid-reply still ends
        // its own chunked body cleanly
        const metDeclared = Number.isFinite(declared) && declared === received;
        if (how === 'reset' || (!metDeclared && cutJson(text))) throw cutReply(status, received, declared);
      }
      return finishBuffered();
    },
  };
}
