/**
 * Reads a server-sent event stream from our server into a list of {id, event, data}, using the
 * eventsource-parser library (not a hand-written parser).
 */
import { createParser } from 'eventsource-parser';

/** One received event; `data` is parsed JSON. */
export interface ReceivedEvent {
  id?: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary event payloads
  data: any;
}

/** Posts `body` and collects every event until the stream ends. Also returns the response headers and status. */
export async function postSse(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  opts: { signal?: AbortSignal; onEvent?: (e: ReceivedEvent) => void } = {},
): Promise<{ status: number; headers: Headers; events: ReceivedEvent[]; comments: string[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: opts.signal,
  });
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return {
      status: res.status,
      headers: res.headers,
      events: [{ event: 'json', data: await res.json() }],
      comments,
    };
  }
  const parser = createParser({
    onEvent: (e) => {
      const ev = { id: e.id, event: e.event ?? 'message', data: JSON.parse(e.data) };
      events.push(ev);
      opts.onEvent?.(ev);
    },
    onComment: (c) => comments.push(c.trim()),
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return { status: res.status, headers: res.headers, events, comments };
}
