/**
 * An instant chat-completions gateway for the chat benchmarks: node:http on 127.0.0.1, in the
 * benchmark process (so its timestamps and the client's share one clock, performance.now()).
 * Each request is answered by a script function, called with what the request says (its
 * `stream` flag, how many `role:"tool"` results it carries, the benchmark's turn marker), so a
 * turn can make N tool-call round-trips and then answer. `stream:true` requests get SSE
 * `chat.completion.chunk` events, others one `chat.completion` JSON body.
 *
 * A `custom` answer gets a ChunkWriter and writes the stream itself: a token chunk on demand
 * (`token()` returns the time it was written), tool calls, the finish chunk and `[DONE]`. That is
 * how the relay and reattach benchmarks pace tokens and hold the last chunk.
 *
 * Every answered request is recorded with its own time: from the `request` event (headers
 * parsed) to the response's `finish` (last byte handed to the kernel). Benchmarks subtract that
 * from the client's wall time to get the server's share. Unlike test/helpers/scripted-gateway.ts
 * (which replays fault cases), this one does as little as possible per request: it counts tool
 * results and finds the marker in the raw body with indexOf/regex instead of parsing the JSON.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** A tool call the gateway asks for. `arguments` objects are sent as JSON text. */
export interface ScriptToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** One incoming request, as the script sees it. */
export interface GatewayCall {
  /** 1, 2, 3 ... over the gateway's life. */
  seq: number;
  /** The request body as received (UTF-8). */
  raw: string;
  /** `"stream":true` in the body. */
  stream: boolean;
  /** Number of `role:"tool"` messages in the body (tool round-trips already made in this turn). */
  toolResults: number;
  /** The last `bench-turn-<id>` in the body (the newest user message's), if any. */
  marker: string | undefined;
  /** performance.now() when the request's headers were parsed. */
  receivedAt: number;
  /** The body parsed as JSON (parsed on first call; costs gateway time). */
  json(): unknown;
}

/** What the gateway answers. */
export type GatewayAnswer =
  /** A tool-call reply (optionally with some text streamed before the calls). */
  | { kind: 'tools'; calls: ScriptToolCall[]; text?: string }
  /** A final answer; streamed as `chunks` (default: the whole text in one chunk). */
  | { kind: 'text'; text: string; chunks?: string[] }
  /** The script writes the stream itself (streaming requests only). */
  | { kind: 'custom'; run(w: ChunkWriter): Promise<void> | void };

/** Writes one SSE reply piece by piece. */
export interface ChunkWriter {
  /** Writes one content chunk; returns performance.now() taken just before the write. */
  token(text: string): number;
  /** Writes several content chunks in one socket write (as fast as the gateway can). */
  tokens(texts: string[]): void;
  /** Writes one chunk carrying these tool calls. */
  toolCalls(calls: ScriptToolCall[]): void;
  /** Writes the finish chunk (finish_reason, usage) and `[DONE]`, and ends the response. */
  finish(reason?: string): void;
  /** Resolves when the socket's write buffer has drained. */
  drained(): Promise<void>;
  /** True once the connection closed (the client gave up or finish() ran). */
  readonly closed: boolean;
}

/** One answered request. */
export interface GatewayRecord {
  seq: number;
  marker: string | undefined;
  stream: boolean;
  toolResults: number;
  receivedAt: number;
  finishedAt: number;
  /** finishedAt - receivedAt: the gateway's own time for this request, ms. */
  ms: number;
  bytesIn: number;
  bytesOut: number;
  /** Set when the script threw (the request got a 500). */
  error?: string;
}

/** The script: one answer per request. */
export type GatewayScript = (call: GatewayCall) => GatewayAnswer | Promise<GatewayAnswer>;

/** A running gateway. */
export interface InstantGateway {
  /** http://127.0.0.1:<port>/v1/chat/completions (every path is served the same way). */
  url: string;
  /** The script; may be replaced between phases. */
  script: GatewayScript;
  /** Requests answered since the last take(), oldest first; clears them. */
  take(): GatewayRecord[];
  /** Requests started and not yet finished. */
  readonly inFlight: number;
  /** Requests received over the gateway's life. */
  readonly received: number;
  /** Resolves once no request is in flight (a response's `finish` is recorded a tick after the client saw it). */
  settled(): Promise<void>;
  /** Errors thrown by scripts (kept, not cleared by take()). */
  readonly errors: string[];
  close(): Promise<void>;
}

const MARKER = /bench-turn-[A-Za-z0-9_-]+/g;
const TOOL_ROLE = '"role":"tool"';
const MODEL = 'bench-instant';
const CREATED = 1760000000;

/** Number of non-overlapping occurrences of `needle` in `hay`. */
function countOf(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) n++;
  return n;
}

function lastMarker(raw: string): string | undefined {
  let last: string | undefined;
  for (const m of raw.matchAll(MARKER)) last = m[0];
  return last;
}

// chunk prefix/suffix, so a token chunk is one JSON.stringify of its text plus two concatenations
const CHUNK_HEAD = `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":${CREATED},"model":"${MODEL}","choices":[{"index":0,"delta":`;
const TOKEN_HEAD = `${CHUNK_HEAD}{"content":`;
const TOKEN_TAIL = '},"finish_reason":null}]}\n\n';
const ROLE_CHUNK = `${CHUNK_HEAD}{"role":"assistant","content":""},"finish_reason":null}]}\n\n`;

function tokenChunk(text: string): string {
  return TOKEN_HEAD + JSON.stringify(text) + TOKEN_TAIL;
}

function wireCalls(calls: ScriptToolCall[], seq: number) {
  return calls.map((c, i) => ({
    index: i,
    id: c.id ?? `call_bench_${seq}_${i}`,
    type: 'function',
    function: {
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    },
  }));
}

function finishChunk(reason: string): string {
  const chunk = JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    choices: [{ index: 0, delta: {}, finish_reason: reason }],
    usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 },
  });
  return `data: ${chunk}\n\ndata: [DONE]\n\n`;
}

function jsonBody(answer: GatewayAnswer, seq: number): string {
  const message: Record<string, unknown> = { role: 'assistant' };
  let finish = 'stop';
  if (answer.kind === 'tools') {
    message.content = answer.text ?? '';
    message.tool_calls = wireCalls(answer.calls, seq);
    finish = 'tool_calls';
  } else if (answer.kind === 'text') {
    message.content = answer.text;
  } else {
    throw new Error('a custom (streamed) answer needs a stream:true request');
  }
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: CREATED,
    model: MODEL,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010 },
  });
}

/** Starts a gateway on 127.0.0.1 (a free port) answering with `script`. */
export async function startInstantGateway(script: GatewayScript): Promise<InstantGateway> {
  let records: GatewayRecord[] = [];
  const errors: string[] = [];
  const sockets = new Set<Socket>();
  let seq = 0;
  let inFlight = 0;
  let current = script;

  const server = http.createServer({ noDelay: true }, (req, res) => {
    const receivedAt = performance.now();
    const mySeq = ++seq;
    inFlight++;
    const parts: Buffer[] = [];
    let bytesIn = 0;
    let bytesOut = 0;
    const rec: Omit<GatewayRecord, 'finishedAt' | 'ms'> = {
      seq: mySeq,
      marker: undefined,
      stream: false,
      toolResults: 0,
      receivedAt,
      bytesIn: 0,
      bytesOut: 0,
    };
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      inFlight--;
      const finishedAt = performance.now();
      records.push({ ...rec, bytesIn, bytesOut, finishedAt, ms: finishedAt - receivedAt });
    };
    res.on('finish', record);
    res.on('close', record);
    const write = (s: string): boolean => {
      bytesOut += Buffer.byteLength(s);
      return res.write(s);
    };
    req.on('data', (c: Buffer) => {
      parts.push(c);
      bytesIn += c.length;
    });
    req.on('end', () => {
      const raw = parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8');
      let parsed: unknown;
      let didParse = false;
      const call: GatewayCall = {
        seq: mySeq,
        raw,
        stream: raw.includes('"stream":true'),
        toolResults: countOf(raw, TOOL_ROLE),
        marker: lastMarker(raw),
        receivedAt,
        json() {
          if (!didParse) {
            parsed = JSON.parse(raw);
            didParse = true;
          }
          return parsed;
        },
      };
      rec.stream = call.stream;
      rec.toolResults = call.toolResults;
      rec.marker = call.marker;
      const fail = (err: unknown) => {
        const msg = `gateway script failed on request ${mySeq}: ${(err as Error)?.stack ?? err}`;
        errors.push(msg);
        rec.error = msg;
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'bench gateway script failed' } }));
        } else res.destroy();
      };
      const answerWith = (answer: GatewayAnswer) => {
        if (!call.stream) {
          const body = jsonBody(answer, mySeq);
          bytesOut += Buffer.byteLength(body);
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        let closed = false;
        res.on('close', () => {
          closed = true;
        });
        const w: ChunkWriter = {
          token(text) {
            const at = performance.now();
            if (!closed) write(tokenChunk(text));
            return at;
          },
          tokens(texts) {
            if (!closed) write(texts.map(tokenChunk).join(''));
          },
          toolCalls(calls) {
            if (!closed)
              write(
                `${CHUNK_HEAD}${JSON.stringify({ tool_calls: wireCalls(calls, mySeq) })},"finish_reason":null}]}\n\n`,
              );
          },
          finish(reason = 'stop') {
            if (closed) return;
            write(finishChunk(reason));
            closed = true;
            res.end();
          },
          drained() {
            if (closed || !res.writableNeedDrain) return Promise.resolve();
            return new Promise((resolve) => {
              const done = () => {
                res.off('drain', done);
                res.off('close', done);
                resolve();
              };
              res.on('drain', done);
              res.on('close', done);
            });
          },
          get closed() {
            return closed;
          },
        };
        if (answer.kind === 'custom') {
          write(ROLE_CHUNK);
          Promise.resolve(answer.run(w)).catch(fail);
          return;
        }
        // one write for the whole reply: the fastest a gateway can answer
        let out = ROLE_CHUNK;
        if (answer.kind === 'tools') {
          if (answer.text) out += tokenChunk(answer.text);
          out += `${CHUNK_HEAD}${JSON.stringify({ tool_calls: wireCalls(answer.calls, mySeq) })},"finish_reason":null}]}\n\n`;
          out += finishChunk('tool_calls');
        } else {
          for (const c of answer.chunks ?? [answer.text]) out += tokenChunk(c);
          out += finishChunk('stop');
        }
        write(out);
        closed = true;
        res.end();
      };
      try {
        const a = current(call);
        if (a instanceof Promise) a.then(answerWith, fail);
        else answerWith(a);
      } catch (err) {
        fail(err);
      }
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const gw: InstantGateway = {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    get script() {
      return current;
    },
    set script(s: GatewayScript) {
      current = s;
    },
    take() {
      const out = records;
      records = [];
      return out;
    },
    get inFlight() {
      return inFlight;
    },
    get received() {
      return seq;
    },
    errors,
    async settled() {
      for (let i = 0; i < 1000 && inFlight > 0; i++) await new Promise((r) => setImmediate(r));
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return gw;
}

/** Sum of the records' own times, ms. */
export function gatewayMs(records: readonly GatewayRecord[]): number {
  let s = 0;
  for (const r of records) s += r.ms;
  return s;
}
