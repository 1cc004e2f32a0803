/**
 * Reads one turn's server-sent events from a fetch response (EventSource cannot POST): the body
 * is decoded as UTF-8 and fed to `eventsource-parser`, each event handed over as a `TurnEvent`
 * until `done`. How the read ended is a value:
 * - `done`: the `done` event arrived (the turn is over);
 * - `dropped`: the connection failed or the body ended before `done` (reattach);
 * - `none`: 204, nothing to attach to (reload the conversation);
 * - `refused`: a JSON error answer (status, code, the server's sentence);
 * - `aborted`: the caller aborted (a newer connection replaced this one).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TurnEvent } from './chat-types.js';

export type StreamOutcome =
  | { kind: 'done' | 'dropped' | 'none' | 'aborted' }
  | { kind: 'refused'; status: number; code: string; message: string };

const TYPES = new Set([
  'status',
  'token',
  'reset',
  'approval',
  'approval-resolved',
  'reply',
  'error',
  'stopped',
  'done',
]);

/** One parsed SSE message as a TurnEvent; null for unknown types or unreadable data. */
export function toTurnEvent(m: EventSourceMessage): TurnEvent | null {
  if (!m.event || !TYPES.has(m.event)) return null;
  let data: unknown;
  try {
    data = JSON.parse(m.data);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const id = m.id !== undefined && /^\d+$/.test(m.id) ? Number(m.id) : undefined;
  return { id, type: m.event, data } as TurnEvent;
}

/** The server's `{error, code}` of a refused request, with wording for answers that are not JSON. */
async function refusal(res: Response): Promise<StreamOutcome> {
  let body: { error?: unknown; code?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // an HTML error page from a proxy, or nothing
  }
  return {
    kind: 'refused',
    status: res.status,
    code: typeof body.code === 'string' ? body.code : 'HTTP_ERROR',
    message:
      typeof body.error === 'string'
        ? body.error
        : `The server answered ${res.status} ${res.statusText}`.trim(),
  };
}

/**
 * Waits for `response`, then reads its events into `onEvent` until `done` or the end.
 * Never throws: every ending is a StreamOutcome.
 */
export async function readTurnStream(
  response: Promise<Response>,
  onEvent: (e: TurnEvent) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const lost = (): StreamOutcome => ({ kind: signal.aborted ? 'aborted' : 'dropped' });
  let res: Response;
  try {
    res = await response;
  } catch {
    return lost();
  }
  if (res.status === 204) return { kind: 'none' };
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || !type.startsWith('text/event-stream') || !res.body) return refusal(res);

  let finished = false;
  const parser = createParser({
    onEvent(m) {
      if (finished || signal.aborted) return;
      const e = toTurnEvent(m);
      if (!e) return;
      if (e.type === 'done') finished = true;
      onEvent(e);
    },
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!finished) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    return lost();
  }
  if (finished) {
    reader.cancel().catch(() => {});
    return { kind: 'done' };
  }
  return lost();
}
