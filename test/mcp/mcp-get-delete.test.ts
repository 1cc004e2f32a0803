/**
 * A GET (the session's event stream) and a DELETE (the end of the session) of `/mcp` are checked
 * as a POST is: an MCP-Protocol-Version the server does not speak is 400 naming the header, and
 * the refusal is a JSON-RPC error with `data.code`; a GET that cannot read an event stream is 406
 * the same way. A DELETE sent with a Content-Type but no body (as some HTTP libraries send every
 * request) ends the session instead of being refused as an empty JSON body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-get-delete-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => s?.close());

const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

async function newSession(): Promise<string> {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${T}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify(init),
  });
  await r.text();
  return r.headers.get('mcp-session-id') ?? '';
}

async function send(method: string, session: string, headers: Record<string, string>) {
  const ac = new AbortController();
  const r = await fetch(`${s.url}/mcp`, {
    method,
    headers: { authorization: `Bearer ${T}`, 'mcp-session-id': session, ...headers },
    signal: ac.signal,
  });
  // an event stream stays open: its status and type are what is checked
  if (r.headers.get('content-type')?.includes('text/event-stream')) {
    ac.abort();
    return { status: r.status, type: 'text/event-stream', body: undefined };
  }
  const text = await r.text();
  return { status: r.status, type: r.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
}

describe('GET and DELETE /mcp', () => {
  it('refuse a protocol version the server does not speak with 400 naming the header', async () => {
    const sid = await newSession();
    for (const method of ['GET', 'DELETE']) {
      for (const v of ['1999-01-01', 'bogus', '']) {
        const r = await send(method, sid, { accept: 'text/event-stream', 'mcp-protocol-version': v });
        expect(r.status, `${method} ${v}`).toBe(400);
        expect(r.body.jsonrpc).toBe('2.0');
        expect(r.body.error.message).toContain('MCP-Protocol-Version');
        expect(r.body.error.data.code).toBe('BAD_REQUEST');
        expect(r.body.error.data.details[0].path).toBe('headers.mcp-protocol-version');
      }
    }
    // the session was not ended by the refused DELETE: a known version opens its stream
    const ok = await send('GET', sid, { accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' });
    expect(ok.status).toBe(200);
    expect(ok.type).toBe('text/event-stream');
  });

  it('a GET that accepts no event stream is 406 with data.code', async () => {
    const sid = await newSession();
    const r = await send('GET', sid, { accept: 'application/json', 'mcp-protocol-version': '2025-06-18' });
    expect(r.status).toBe(406);
    expect(r.body.error.data.code).toBe('NOT_ACCEPTABLE');
    expect(r.body.error.message).toContain('text/event-stream');
  });

  it('a DELETE with a Content-Type and no body ends the session', async () => {
    const sid = await newSession();
    const r = await send('DELETE', sid, {
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await send('GET', sid, {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    });
    expect(after.status).toBe(404);
  });
});
