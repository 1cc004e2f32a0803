/**
 * A client whose event stream dropped while a tool call was running reconnects with a GET
 * carrying `Last-Event-ID` and gets what it missed: the call's answer, sent while it was away.
 * A Last-Event-ID the session does not keep is 400 naming the header (what came after it is
 * lost), not a new stream that silently never brings the missed answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-resume-token';
const V = '2025-11-25';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => s?.close());

const headers = (sid?: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${T}`,
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': V } : {}),
  ...extra,
});

interface SseEvent {
  id?: string;
  data: string;
}

/** Reads SSE events from `body` one at a time. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<SseEvent> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const ev: SseEvent = { data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith('id:')) ev.id = line.slice(3).trim();
            if (line.startsWith('data:')) ev.data += line.slice(5).trim();
          }
          return ev;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

async function session(): Promise<string> {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: V,
        capabilities: { elicitation: {} },
        clientInfo: { name: 't', version: '1' },
      },
    }),
  });
  await r.text();
  const sid = r.headers.get('mcp-session-id') ?? '';
  const note = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: headers(sid),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await note.text();
  return sid;
}

describe('a dropped event stream resumed with Last-Event-ID', () => {
  it('brings the answer of a tool call that finished while the client was away', async () => {
    const made = await s.api('/api/manifests', {
      token: T,
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'resume', label: 'Resume', writeable: { fromWebapp: true } },
        data: [],
      },
    });
    expect(made.status).toBe(201);
    const sid = await session();
    // the session's own stream, where the server asks for approval
    const get = await fetch(`${s.url}/mcp`, {
      method: 'GET',
      headers: headers(sid, { accept: 'text/event-stream' }),
    });
    expect(get.status).toBe(200);
    const asks = sseReader(get.body as ReadableStream<Uint8Array>);

    const ac = new AbortController();
    const call = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: headers(sid),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'delete_manifest', arguments: { id: 'resume' } },
      }),
      signal: ac.signal,
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const answers = sseReader(call.body as ReadableStream<Uint8Array>);
    const first = await answers.next();
    expect(first.id, 'the stream names its events').toBeTruthy();
    // the connection drops while the person is being asked
    ac.abort();

    const ask = JSON.parse((await asks.next()).data);
    expect(ask.method).toBe('elicitation/create');
    const yes = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: headers(sid),
      body: JSON.stringify({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: {} } }),
    });
    expect(yes.status).toBe(202);
    await asks.cancel();

    const resumed = await fetch(`${s.url}/mcp`, {
      method: 'GET',
      headers: headers(sid, { accept: 'text/event-stream', 'last-event-id': String(first.id) }),
    });
    expect(resumed.status).toBe(200);
    const missed = sseReader(resumed.body as ReadableStream<Uint8Array>);
    const answer = JSON.parse((await missed.next()).data);
    expect(answer.id).toBe(7);
    expect(JSON.parse(answer.result.content[0].text)).toMatchObject({ ok: true, removed: true });
    await missed.cancel();
  });

  it('a Last-Event-ID the session does not keep is 400 naming the header', async () => {
    const sid = await session();
    const r = await fetch(`${s.url}/mcp`, {
      method: 'GET',
      headers: headers(sid, { accept: 'text/event-stream', 'last-event-id': 'e999999' }),
    });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body.error.message).toContain('Last-Event-ID');
    expect(body.error.data.details[0].path).toBe('headers.last-event-id');
  });
});
