/**
 * `/mcp` reads the client's Accept header as HTTP media ranges: `*\/*` (what a plain fetch or a
 * browser sends), `application/*`, any letter case, and a client that takes only event streams
 * are served; a client that takes only JSON gets a session that answers every request with one
 * JSON object (and, having no stream to ask on, never waits for an approval); a header that
 * allows neither is 406. Before, anything but the two types spelled out was refused with 406.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-accept-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

const init = (capabilities: object = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 't', version: '1' } },
});

async function post(body: unknown, accept: string, session?: string) {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${T}`,
      accept,
      'content-type': 'application/json',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: r.status,
    type: r.headers.get('content-type') ?? '',
    session: r.headers.get('mcp-session-id') ?? '',
    text: await r.text(),
  };
}

/** The JSON-RPC message of an answer, whether sent as JSON or as one event of a stream. */
function message(text: string) {
  const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return JSON.parse(data ?? 'null');
}

describe('the Accept header of /mcp', () => {
  it('serves wildcards, any case and event streams alone, answering with event streams', async () => {
    for (const accept of [
      '*/*',
      'application/*, text/*',
      'Application/JSON, Text/Event-Stream',
      'text/event-stream',
      'application/json;q=0.9, text/event-stream;q=1',
    ]) {
      const opened = await post(init(), accept);
      expect(opened.status, `${accept}: ${opened.text}`).toBe(200);
      expect(opened.type).toMatch(/^text\/event-stream/);
      const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, accept, opened.session);
      expect(list.status, `${accept}: ${list.text}`).toBe(200);
      expect(message(list.text).result.tools.length).toBeGreaterThan(0);
    }
  });

  it('answers a client that takes only JSON with JSON, and never waits for an approval', async () => {
    const opened = await post(init({ elicitation: {} }), 'application/json');
    expect(opened.status, opened.text).toBe(200);
    expect(opened.type).toMatch(/^application\/json/);
    expect(message(opened.text).result.protocolVersion).toBe('2025-06-18');
    const list = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      'application/json',
      opened.session,
    );
    expect(list.type).toMatch(/^application\/json/);
    expect(message(list.text).result.tools.length).toBeGreaterThan(0);
    const del = await post(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'delete_manifest', arguments: { id: 'welcome' } },
      },
      'application/json',
      opened.session,
    );
    const result = message(del.text).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text).code).toBe('APPROVAL_REQUIRED');
    expect((await s.api('/api/manifests/welcome', { token: T })).status).toBe(200);
  });

  it('refuses with 406 a header that allows neither JSON nor event streams', async () => {
    for (const accept of ['image/png', 'application/json;q=0, text/event-stream;q=0', 'text/html']) {
      const r = await post(init(), accept);
      expect(r.status, accept).toBe(406);
      expect(message(r.text)).toMatchObject({ id: 1, error: { data: { code: 'NOT_ACCEPTABLE' } } });
    }
  });

  it('opens the event stream of a session for GET with Accept */*', async () => {
    const opened = await post(init(), '*/*');
    const ctl = new AbortController();
    const r = await fetch(`${s.url}/mcp`, {
      headers: { authorization: `Bearer ${T}`, accept: '*/*', 'mcp-session-id': opened.session },
      signal: ctl.signal,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    ctl.abort();
  });
});
