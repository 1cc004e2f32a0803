/**
 * The language model's stand-in (ARCHITECTURE "Tests"): a real HTTP server on 127.0.0.1 that
 * speaks chat-completions, driven by a script. Each incoming request takes the next step of the
 * queue: a reply (buffered JSON or SSE chunks, by the request's `stream` flag), an HTTP error,
 * a dropped connection, a stall, a raw gateway case file served byte for byte, or arbitrary
 * bytes. Every request is recorded (method, path, headers, parsed JSON body).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { casePath } from '../cases/cases-dir.js';

/** One request as the gateway saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when it was not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary request fields
  body: any;
  rawBody: string;
}

/** A tool call a scripted reply makes. Without `id` the call is sent with no id at all. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** Delays shared by every step, ms. */
export interface StepTiming {
  /** Wait before anything is written (the status line included). */
  headersDelayMs?: number;
  /** Wait between consecutive writes (SSE chunks, raw pieces). */
  chunkDelayMs?: number;
}

/** A normal answer. Served as SSE when the request had `stream:true` (unless `as` says otherwise). */
export interface ReplyStep extends StepTiming {
  kind: 'reply';
  text?: string;
  /** Explicit text fragments, one SSE chunk each (default: `text` split after each word). */
  chunks?: string[];
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string | null;
  /** Wire usage object; streamed as a trailing `choices: []` chunk only when the request asked for it. */
  usage?: Record<string, unknown>;
  model?: string;
  /** Streamed replies end with `data: [DONE]` unless this is set. */
  omitDone?: boolean;
  /** Force the reply shape regardless of the request's `stream` flag. */
  as?: 'json' | 'sse';
}

/** An HTTP error response. */
export interface ErrorStep extends StepTiming {
  kind: 'error';
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as is; an object as JSON (default content type application/json). */
  body?: string | object;
}

/** The socket is destroyed: before any response, or after streaming `afterText` as SSE chunks. */
export interface DropStep extends StepTiming {
  kind: 'drop';
  afterText?: string;
}

/** Headers (and `afterText` chunks, if any) are sent, then nothing until the client gives up. */
export interface StallStep extends StepTiming {
  kind: 'stall';
  afterText?: string;
}

/**
 * A gateway case file of the cases folder (test/cases/cases-dir.ts), served byte for byte:
 * `HTTP/1.1 ` files are written straight to the socket; body-only files get the status and
 * content type of CASE_BODY_META. `split` cuts the bytes into separate writes: 'events' after
 * each blank line, or at the given byte offsets of the body.
 */
export interface RawStep extends StepTiming {
  kind: 'raw';
  caseId: string;
  split?: 'events' | number[];
  /** Bytes appended after the case bytes (e.g. a `data: [DONE]` the fixture lacks). */
  append?: string;
}

/** Arbitrary body bytes in separate writes, e.g. a UTF-8 character split across two writes. */
export interface BytesStep extends StepTiming {
  kind: 'bytes';
  status?: number;
  headers?: Record<string, string>;
  chunks: Array<string | Uint8Array>;
  /**
   * 'end' (default) finishes the response cleanly; 'destroy' kills the socket after the last
   * chunk; 'hold' keeps the connection open and silent afterwards.
   */
  end?: 'end' | 'destroy' | 'hold';
}

/**
 * One of our own byte fixtures (test/fixtures/gateway/<name>.txt, see readFixture) served byte for
 * byte with the status and content type its header gives. `split` cuts the body into writes:
 * 'events' after each blank line, 'lines' after each line end, or at byte offsets.
 */
export interface FixtureStep extends StepTiming {
  kind: 'fixture';
  name: string;
  split?: 'events' | 'lines' | number[];
  /** Overrides the fixture's own `end`. */
  end?: 'end' | 'destroy' | 'hold';
}

/** The step is chosen when the request arrives, from what was sent (a strict gateway's validation). */
export interface DecideStep {
  kind: 'decide';
  choose(request: RecordedRequest): ScriptStep;
  /** Wait this long before the chosen step's headers (when the chosen step has no delay of its own). */
  headersDelayMs?: number;
}

/** One scripted answer; each request consumes the next step of the queue. */
export type ScriptStep =
  | ReplyStep
  | ErrorStep
  | DropStep
  | StallStep
  | RawStep
  | BytesStep
  | FixtureStep
  | DecideStep;

/** A byte fixture: what the behaviour is, where it was reported, and the bytes to serve. */
export interface GatewayFixture {
  name: string;
  title: string;
  /** The public bug report the behaviour comes from. */
  source: string;
  status: number;
  contentType: string;
  /** 'end' (default): the response ends; 'hold': the connection stays open and silent; 'destroy': the socket dies. */
  end: 'end' | 'destroy' | 'hold';
  body: Buffer;
}

/** Where our own gateway byte fixtures live (in the repository). */
export const FIXTURE_DIR = new URL('../fixtures/gateway/', import.meta.url);

/**
 * Reads test/fixtures/gateway/<name>.txt: header lines `# key: value` (title, source, status,
 * content-type, end) up to the first empty line; every byte after that line is the body.
 */
export function readFixture(name: string): GatewayFixture {
  const file = readFileSync(new URL(`${name}.txt`, FIXTURE_DIR));
  const headerEnd = file.indexOf('\n\n');
  if (headerEnd < 0) throw new Error(`fixture ${name}: no blank line after the header`);
  const fields = new Map<string, string>();
  for (const line of file.subarray(0, headerEnd).toString('utf8').split('\n')) {
    const m = /^#\s*([a-z-]+):\s*(.*)$/.exec(line);
    if (m) fields.set(m[1], m[2].trim());
  }
  const end = fields.get('end') ?? 'end';
  if (end !== 'end' && end !== 'hold' && end !== 'destroy')
    throw new Error(`fixture ${name}: bad end ${end}`);
  return {
    name,
    title: fields.get('title') ?? name,
    source: fields.get('source') ?? '',
    status: Number(fields.get('status') ?? 200),
    contentType: fields.get('content-type') ?? 'text/event-stream',
    end,
    body: file.subarray(headerEnd + 2),
  };
}

/** A running scripted gateway. */
export interface ScriptedGateway {
  /** Base URL plus the default path: http://127.0.0.1:<port>/v1/chat/completions. */
  url: string;
  /** http://127.0.0.1:<port> (append any path: every path is served). */
  origin: string;
  /** Appends steps to the queue. */
  script(...steps: ScriptStep[]): void;
  /** Every request received so far, oldest first. */
  requests: RecordedRequest[];
  /** Steps not yet consumed. */
  readonly remaining: number;
  /** Destroys open connections and stops the server. */
  close(): Promise<void>;
}

/**
 * Status and content type of the body-only case files, as the cases README states them.
 * `end: 'destroy'` means the socket died after the bytes.
 */
export const CASE_BODY_META: Record<string, { status: number; contentType: string; end?: 'destroy' }> = {
  G01: { status: 200, contentType: 'application/json' },
  G02: { status: 200, contentType: 'text/event-stream' },
  G04: { status: 200, contentType: 'text/event-stream' },
  G06: { status: 200, contentType: 'text/event-stream' },
  G07: { status: 200, contentType: 'text/event-stream' },
  G08: { status: 200, contentType: 'text/event-stream' },
  G09: { status: 200, contentType: 'text/event-stream' },
  G11: { status: 400, contentType: 'application/json' },
  G12: { status: 400, contentType: 'application/json' },
  G13: { status: 400, contentType: 'application/json' },
  G14: { status: 200, contentType: 'application/json' },
  G16: { status: 200, contentType: 'text/event-stream' },
  G17: { status: 200, contentType: 'text/event-stream' },
  G19: { status: 200, contentType: 'application/json' },
  G21: { status: 200, contentType: 'text/event-stream' },
  G24: { status: 200, contentType: 'text/event-stream' },
  G27: { status: 200, contentType: 'text/event-stream', end: 'destroy' },
};

/** The exact bytes of a case file: everything after its title line and the blank line. */
export function readCaseBytes(caseId: string): Buffer {
  // read from the cases folder outside the repository (never copied into it): the cases suite only
  const file = readFileSync(casePath('gateway', `${caseId}.txt`));
  const first = file.indexOf(0x0a);
  const second = file.indexOf(0x0a, first + 1);
  return file.subarray(second + 1);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function splitBytes(bytes: Buffer, split: RawStep['split'] | FixtureStep['split']): Buffer[] {
  if (!split) return [bytes];
  const cuts: number[] = [];
  if (split === 'lines') {
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) cuts.push(i + 1);
  } else if (split === 'events') {
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x0a && bytes[i + 1] === 0x0a) cuts.push(i + 2);
      else if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a && bytes[i + 2] === 0x0d && bytes[i + 3] === 0x0a)
        cuts.push(i + 4);
    }
  } else cuts.push(...split);
  const pieces: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut > at && cut < bytes.length) {
      pieces.push(bytes.subarray(at, cut));
      at = cut;
    }
  }
  pieces.push(bytes.subarray(at));
  return pieces.filter((p) => p.length > 0);
}

function wordsOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function sse(obj: unknown): string {
  return `data: ${typeof obj === 'string' ? obj : JSON.stringify(obj)}\n\n`;
}

/** The SSE events of a reply (each string one `data:` event, LF framed). */
function replyEvents(step: ReplyStep, includeUsage: boolean): string[] {
  const base = {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1760000000,
    model: step.model ?? 'scripted',
  };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = [chunk({ role: 'assistant', content: '' })];
  if (step.reasoning) for (const r of wordsOf(step.reasoning)) events.push(chunk({ reasoning_content: r }));
  for (const t of step.chunks ?? wordsOf(step.text ?? '')) events.push(chunk({ content: t }));
  (step.toolCalls ?? []).forEach((tc, index) => {
    const args = typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments);
    const half = Math.floor(args.length / 2);
    const head: Record<string, unknown> = {
      index,
      type: 'function',
      function: { name: tc.name, arguments: args.slice(0, half) },
    };
    if (tc.id !== undefined) head.id = tc.id;
    events.push(chunk({ tool_calls: [head] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  const finish =
    step.finishReason === undefined ? (step.toolCalls?.length ? 'tool_calls' : 'stop') : step.finishReason;
  events.push(chunk({}, finish));
  if (step.usage && includeUsage) events.push(sse({ ...base, choices: [], usage: step.usage }));
  if (!step.omitDone) events.push(sse('[DONE]'));
  return events;
}

/** The buffered JSON body of a reply. */
function replyJson(step: ReplyStep): string {
  const message: Record<string, unknown> = { role: 'assistant', content: step.text ?? null };
  if (step.reasoning) message.reasoning_content = step.reasoning;
  if (step.toolCalls?.length) {
    message.tool_calls = step.toolCalls.map((tc) => ({
      ...(tc.id !== undefined ? { id: tc.id } : {}),
      type: 'function',
      function: {
        name: tc.name,
        arguments: typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments),
      },
    }));
  }
  const finish =
    step.finishReason === undefined ? (step.toolCalls?.length ? 'tool_calls' : 'stop') : step.finishReason;
  return JSON.stringify({
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1760000000,
    model: step.model ?? 'scripted',
    choices: [{ index: 0, message, finish_reason: finish }],
    ...(step.usage ? { usage: step.usage } : {}),
  });
}

/**
 * Starts a scripted gateway on 127.0.0.1 with a free port. Requests that find the queue empty
 * get a 500 JSON error naming the problem, so a test that under-scripts fails loudly.
 */
export async function startScriptedGateway(): Promise<ScriptedGateway> {
  const queue: ScriptStep[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse, rawBody: string) => {
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody });
    const socket = req.socket;
    const alive = () => !socket.destroyed;
    let step = queue.shift();
    let decideDelayMs: number | undefined;
    while (step?.kind === 'decide') {
      decideDelayMs ??= step.headersDelayMs;
      step = step.choose(requests[requests.length - 1]);
    }
    if (!step) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'scripted gateway: the script has no step left for this request' },
        }),
      );
      return;
    }
    const chosen = step;
    const headersDelayMs = chosen.headersDelayMs ?? decideDelayMs;
    if (headersDelayMs) await sleep(headersDelayMs);
    if (!alive()) return;
    const gap = async () => {
      if (chosen.chunkDelayMs) await sleep(chosen.chunkDelayMs);
    };
    const streamed = body?.stream === true;
    const includeUsage = body?.stream_options?.include_usage === true;

    const writeSse = async (events: string[]) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.flushHeaders();
      for (const [i, e] of events.entries()) {
        if (i > 0) await gap();
        if (!alive()) return false;
        res.write(e);
      }
      return true;
    };

    switch (chosen.kind) {
      case 'reply': {
        const asSse = chosen.as ? chosen.as === 'sse' : streamed;
        if (asSse) {
          if (await writeSse(replyEvents(chosen, includeUsage))) res.end();
        } else {
          const json = replyJson(chosen);
          res.writeHead(200, {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(json),
          });
          res.end(json);
        }
        return;
      }
      case 'error': {
        const text =
          typeof chosen.body === 'string'
            ? chosen.body
            : JSON.stringify(chosen.body ?? { error: { message: 'scripted error' } });
        res.writeHead(chosen.status, {
          'Content-Type': 'application/json',
          ...chosen.headers,
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
        return;
      }
      case 'drop':
      case 'stall': {
        if (chosen.afterText !== undefined || chosen.kind === 'stall') {
          const events = wordsOf(chosen.afterText ?? '').map((t) =>
            sse({
              object: 'chat.completion.chunk',
              model: 'scripted',
              choices: [{ index: 0, delta: { content: t }, finish_reason: null }],
            }),
          );
          if (!(await writeSse(events))) return;
          await gap();
        }
        if (chosen.kind === 'drop') socket.destroy();
        return; // a stall just never writes again
      }
      case 'raw': {
        const bytes = Buffer.concat([readCaseBytes(chosen.caseId), Buffer.from(chosen.append ?? '', 'utf8')]);
        if (bytes.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ') {
          const headEnd = bytes.indexOf('\r\n\r\n') + 4;
          const pieces = [bytes.subarray(0, headEnd), ...splitBytes(bytes.subarray(headEnd), chosen.split)];
          for (const [i, p] of pieces.entries()) {
            if (i > 1) await gap();
            if (!alive()) return;
            socket.write(p);
          }
          socket.end();
          return;
        }
        const meta = CASE_BODY_META[chosen.caseId];
        if (!meta)
          throw new Error(
            `scripted gateway: no status/content type known for body-only case ${chosen.caseId}`,
          );
        const headers: Record<string, string | number> = { 'Content-Type': meta.contentType };
        if (!meta.contentType.includes('event-stream')) headers['Content-Length'] = bytes.length;
        res.writeHead(meta.status, headers);
        res.flushHeaders();
        for (const [i, p] of splitBytes(bytes, chosen.split).entries()) {
          if (i > 0) await gap();
          if (!alive()) return;
          res.write(p);
        }
        if (meta.end === 'destroy') {
          await sleep(20);
          socket.destroy();
        } else res.end();
        return;
      }
      case 'fixture': {
        const fx = readFixture(chosen.name);
        const headers: Record<string, string | number> = { 'Content-Type': fx.contentType };
        if (!fx.contentType.includes('event-stream') && fx.end === 'end' && !chosen.split)
          headers['Content-Length'] = fx.body.length;
        res.writeHead(fx.status, headers);
        res.flushHeaders();
        for (const [i, p] of splitBytes(fx.body, chosen.split).entries()) {
          if (i > 0) await gap();
          if (!alive()) return;
          res.write(p);
        }
        const end = chosen.end ?? fx.end;
        if (end === 'destroy') {
          await sleep(20);
          socket.destroy();
        } else if (end !== 'hold') res.end();
        return;
      }
      case 'bytes': {
        res.writeHead(chosen.status ?? 200, { 'Content-Type': 'text/event-stream', ...chosen.headers });
        res.flushHeaders();
        for (const [i, c] of chosen.chunks.entries()) {
          if (i > 0) await gap();
          if (!alive()) return;
          res.write(c);
        }
        if (chosen.end === 'destroy') {
          await sleep(20);
          socket.destroy();
        } else if (chosen.end !== 'hold') res.end();
        return;
      }
    }
  };

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      serve(req, res, Buffer.concat(parts).toString('utf8')).catch((err) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `scripted gateway failed: ${String(err)}` } }));
        } else req.socket.destroy();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1/chat/completions`,
    origin,
    script: (...steps) => {
      queue.push(...steps);
    },
    requests,
    get remaining() {
      return queue.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The text of a recorded message's content: a string as is, content parts' texts joined. A
 * message carrying a cache mark goes out as parts (docs/CHAT-AGENT.md "Prompt caching").
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p) => typeof p === 'object' && p !== null && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
}
