/**
 * A streaming HTTP client for the chat benchmarks: sends one request (POST /api/chat with
 * `stream:true`, or GET /api/chat/turn/:id), reads the server-sent events with eventsource-parser
 * (what a browser-side client would use) and stamps each event with performance.now() when the
 * parser hands it over. It never rejects: a failed request resolves with `error` set, so a
 * benchmark running many streams can count failures instead of stopping at the first.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';

/** One event as received. */
export interface SseEvent {
  /** The `id:` field as a number (undefined when absent). */
  id: number | undefined;
  /** The `event:` field ('message' when absent). */
  type: string;
  data: string;
  /** performance.now() when the parser emitted it. */
  at: number;
}

export interface SseOptions {
  method?: string;
  /** Sent as JSON when given. */
  json?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Default: false (a fresh connection, closed at the end). */
  agent?: http.Agent | false;
  /** Called for each event; return 'close' to drop the connection right there. */
  onEvent?(e: SseEvent): undefined | 'close';
  /** Keep every event in the result (default true). */
  keep?: boolean;
  /** Give up after this long, ms (default 120 s). */
  timeoutMs?: number;
}

export interface SseResult {
  status: number;
  /** performance.now() just before the request was sent. */
  startedAt: number;
  /** When the response head arrived (NaN if it never did). */
  headersAt: number;
  /** When the stream ended (end of body, error, or our own close). */
  endedAt: number;
  events: SseEvent[];
  /** Events received (also when not kept). */
  count: number;
  /** A `done` event arrived. */
  done: boolean;
  /** onEvent asked to close the connection. */
  closedByUs: boolean;
  /** The body when the response was not an event stream (e.g. a JSON error). */
  body: string;
  error?: string;
}

/** Sends the request and reads its event stream to the end. */
export function sseRequest(url: string, opts: SseOptions = {}): Promise<SseResult> {
  const body = opts.json !== undefined ? JSON.stringify(opts.json) : undefined;
  const headers: Record<string, string | number> = { accept: 'text/event-stream', ...opts.headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const keep = opts.keep ?? true;
  return new Promise((resolve) => {
    const result: SseResult = {
      status: 0,
      startedAt: performance.now(),
      headersAt: Number.NaN,
      endedAt: Number.NaN,
      events: [],
      count: 0,
      done: false,
      closedByUs: false,
      body: '',
    };
    let settled = false;
    const settle = (error?: string) => {
      if (settled) return;
      settled = true;
      result.endedAt = performance.now();
      if (error && !result.closedByUs) result.error = error;
      resolve(result);
    };
    const req = http.request(url, {
      method: opts.method ?? (body !== undefined ? 'POST' : 'GET'),
      headers,
      agent: opts.agent ?? false,
    });
    req.setTimeout(opts.timeoutMs ?? 120_000, () =>
      req.destroy(new Error(`timeout after ${opts.timeoutMs ?? 120_000} ms`)),
    );
    req.on('error', (err) => settle(err.message));
    req.on('response', (res) => {
      result.headersAt = performance.now();
      result.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      const isSse = String(res.headers['content-type'] ?? '').includes('text/event-stream');
      const parser = createParser({
        onEvent(ev) {
          const e: SseEvent = {
            id: ev.id === undefined ? undefined : Number(ev.id),
            type: ev.event ?? 'message',
            data: ev.data,
            at: performance.now(),
          };
          result.count++;
          if (keep) result.events.push(e);
          if (e.type === 'done') result.done = true;
          if (opts.onEvent?.(e) === 'close' && !result.closedByUs) {
            result.closedByUs = true;
            settle();
            req.destroy();
          }
        },
      });
      res.on('data', (chunk: string) => {
        if (result.closedByUs) return;
        if (isSse) parser.feed(chunk);
        else result.body += chunk;
      });
      res.on('end', () => settle());
      res.on('error', (err) => settle(err.message));
      res.on('close', () =>
        settle(res.complete ? undefined : 'connection closed before the end of the stream'),
      );
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The `data` of an event parsed as JSON. */
export function eventData<T = Record<string, unknown>>(e: SseEvent): T {
  return JSON.parse(e.data) as T;
}
