/**
 * Shared helpers of the conversation tests: a real server wired to a scripted gateway, an SSE
 * reader for any method (POST /api/chat, GET /api/chat/turn/:id) that can stop reading at any
 * event (the client going away), and a polling guard.
 */
import { createParser } from 'eventsource-parser';
import { contentText, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import type { ReceivedEvent } from '../helpers/sse-client.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it holds (a hang guard, not a speed assertion). */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 10_000,
): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`never happened: ${what}`);
    await sleep(20);
  }
}

/** The chat env of a server that talks to `gw`. */
export function chatEnv(gw: ScriptedGateway, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CHAT_ENDPOINT_URL: gw.url,
    CHAT_API_KEY: 'sk-test',
    CHAT_MODEL: 'test-model',
    CHAT_ITER_TIMEOUT_MS: '20000',
    CHAT_TURN_DEADLINE_MS: '60000',
    ...extra,
  };
}

/** Boots a gateway and a server; `close()` tears both down. */
export async function bootChat(extra: Record<string, string> = {}): Promise<{
  gw: ScriptedGateway;
  s: TestServer;
  close(): Promise<void>;
}> {
  const gw = await startScriptedGateway();
  const s = await startServer({ env: chatEnv(gw, extra) });
  return {
    gw,
    s,
    async close() {
      await s.close();
      await gw.close();
    },
  };
}

/** The result of reading an event stream. */
export interface SseRead {
  status: number;
  headers: Headers;
  events: ReceivedEvent[];
  /** The response was JSON (an error before the stream opened, or a 204). */
  json?: unknown;
  /** True when the reader stopped on purpose (`stopWhen`) before the stream ended. */
  aborted: boolean;
}

/**
 * Opens `url` and reads server-sent events until the stream ends, or until `stopWhen(event,
 * all)` says so; then the request is aborted (the client going away). Events parsed after the
 * stop decision are not recorded.
 */
export async function readSse(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  opts: {
    stopWhen?: (e: ReceivedEvent, all: ReceivedEvent[]) => boolean;
    onEvent?: (e: ReceivedEvent) => void;
  } = {},
): Promise<SseRead> {
  const ctl = new AbortController();
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: ctl.signal,
  });
  const events: ReceivedEvent[] = [];
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      events,
      json: text ? JSON.parse(text) : undefined,
      aborted: false,
    };
  }
  let stop = false;
  const parser = createParser({
    onEvent: (e) => {
      if (stop) return;
      const ev: ReceivedEvent = { id: e.id, event: e.event ?? 'message', data: JSON.parse(e.data) };
      events.push(ev);
      opts.onEvent?.(ev);
      if (opts.stopWhen?.(ev, events)) stop = true;
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (stop) {
        ctl.abort();
        break;
      }
    }
  } catch (err) {
    if (!stop) throw err;
  }
  return { status: res.status, headers: res.headers, events, aborted: stop };
}

/** The text of the token events of a list, in order. */
export const tokenText = (events: ReceivedEvent[]) =>
  events
    .filter((e) => e.event === 'token')
    .map((e) => e.data.text as string)
    .join('');

/** The user/assistant messages a gateway request carried (the system prompt left out), content as text. */
// biome-ignore lint/suspicious/noExplicitAny: recorded gateway bodies are arbitrary JSON
export const dialogue = (body: any): { role: string; content: string }[] =>
  (body?.messages ?? [])
    .filter((m: { role: string }) => m.role === 'user' || m.role === 'assistant')
    .map((m: { role: string; content: unknown }) => ({ role: m.role, content: contentText(m.content) }));

/** Is this recorded gateway request the title side call? (no tools; a system instruction asking for a title) */
// biome-ignore lint/suspicious/noExplicitAny: recorded gateway bodies are arbitrary JSON
export const isTitleCall = (body: any): boolean =>
  !body?.tools && typeof body?.messages?.[0]?.content === 'string' && /title/i.test(body.messages[0].content);
