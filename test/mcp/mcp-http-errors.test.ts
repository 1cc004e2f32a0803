/**
 * What `/mcp` answers a request it refuses, as an MCP client reads it: a JSON-RPC error object
 * (never the API's own error shape) with the HTTP status of the refusal, whose `id` repeats the
 * request's id whenever the body was read and held one (null only when it could not be told: a
 * body not read, or not JSON), and whose `data.code` is the catalogue's code. A body sent as
 * text/plain is 415 with such an object; a 401 keeps the API's answer and its challenge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-errors-token';
let s: TestServer;
let session = '';

const ACCEPT = 'application/json, text/event-stream';
const init = (id: number | string) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

interface Answer {
  status: number;
  type: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer whose shape each test checks
  body: any;
  text: string;
}

async function post(body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${T}`, accept: ACCEPT, 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: r.status, type: r.headers.get('content-type'), body: parsed, text };
}

/** Checks `r` is a JSON-RPC error with `id`, and returns its error object. */
function rpcError(r: Answer, id: unknown) {
  expect(r.body, r.text).toBeDefined();
  expect(r.body.jsonrpc).toBe('2.0');
  expect(r.body.id, r.text).toEqual(id);
  expect(typeof r.body.error?.code).toBe('number');
  expect(typeof r.body.error?.message).toBe('string');
  expect(r.body).not.toHaveProperty('result');
  expect(r.body).not.toHaveProperty('code');
  return r.body.error as { code: number; message: string; data?: { code?: string } };
}

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${T}`, accept: ACCEPT, 'content-type': 'application/json' },
    body: JSON.stringify(init(1)),
  });
  expect(r.status).toBe(200);
  session = r.headers.get('mcp-session-id') ?? '';
  await r.text();
  expect(session).not.toBe('');
});
afterAll(async () => {
  await s.close();
});

describe('a refused /mcp request', () => {
  it('sent as text/plain, or with no Content-Type, is 415 with a JSON-RPC error body', async () => {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', '']) {
      const r = await post(JSON.stringify(init(5)), type ? { 'content-type': type } : { 'content-type': '' });
      expect(r.status, type).toBe(415);
      expect(r.type).toMatch(/^application\/json/);
      const e = rpcError(r, null);
      expect(e.data?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(e.message).toMatch(/application\/json/);
    }
  });

  it('repeats the request id: outside a session, a session it does not know, a second initialize', async () => {
    const noSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    expect(rpcError(noSession, 7).message).toMatch(/initialize/);

    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 'req-6', method: 'tools/list' }), {
      'mcp-session-id': 'no-such-session',
    });
    expect(unknown.status).toBe(404);
    rpcError(unknown, 'req-6');

    const again = await post(JSON.stringify(init(12)), { 'mcp-session-id': session });
    expect(again.status).toBe(400);
    rpcError(again, 12);

    const version = await post(JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'tools/list' }), {
      'mcp-session-id': session,
      'mcp-protocol-version': '1999-01-01',
    });
    expect(version.status).toBe(400);
    expect(rpcError(version, 13).message).toMatch(/1999-01-01/);
  });

  it('repeats the id when the client does not accept event streams', async () => {
    const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }), {
      accept: 'application/json',
      'mcp-session-id': session,
    });
    expect(r.status).toBe(406);
    rpcError(r, 9);
  });

  it('repeats the id of a body that is JSON but not a JSON-RPC message', async () => {
    const r = await post(JSON.stringify({ id: 3, method: 'tools/list' }), { 'mcp-session-id': session });
    expect(r.status).toBe(400);
    expect(rpcError(r, 3).code).toBe(-32600);
  });

  it('a JSON-RPC 2.0 body without a method, or with an id that is null, true or an object, is -32600 with data.code, not a parse error', async () => {
    const cases: [object, unknown][] = [
      [{ jsonrpc: '2.0', id: 31 }, 31],
      [{ jsonrpc: '2.0', id: 32, method: 7 }, 32],
      [{ jsonrpc: '2.0', id: null, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: true, method: 'ping' }, null],
      [{ jsonrpc: '2.0', id: { n: 1 }, method: 'tools/list' }, null],
    ];
    for (const [body, id] of cases) {
      const r = await post(JSON.stringify(body), { 'mcp-session-id': session });
      expect(r.status, r.text).toBe(400);
      const err = rpcError(r, id);
      expect(err.code, r.text).toBe(-32600);
      expect(err.data?.code, r.text).toBe('BAD_REQUEST');
      expect(err.message).toContain('not a JSON-RPC 2.0 message');
    }
    // a notification (no id) is still a message the session takes
    const note = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
      'mcp-session-id': session,
    });
    expect(note.status, note.text).toBe(202);
  });

  it('repeats the id of a body the JSON checks refused, and keeps null for one that is not JSON', async () => {
    const big = await post('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"x":1e999}}', {
      'mcp-session-id': session,
    });
    expect(big.status).toBe(400);
    const e = rpcError(big, 8);
    expect(e.code).toBe(-32602);
    expect(e.data?.code).toBe('NUMBER_OUT_OF_RANGE');

    const deep = await post(`{"jsonrpc":"2.0","id":"d","params":${'['.repeat(150)}${']'.repeat(150)}}`, {
      'mcp-session-id': session,
    });
    expect(deep.status).toBe(400);
    expect(rpcError(deep, 'd').data?.code).toBe('INVALID_JSON');

    const broken = await post('{"jsonrpc":"2.0","id":5,', { 'mcp-session-id': session });
    expect(broken.status).toBe(400);
    expect(rpcError(broken, null).code).toBe(-32700);
  });

  it("carries the catalogue's code as data.code on every refusal of the route itself", async () => {
    const cases: [string, Promise<Answer>, number, string][] = [
      [
        'no session',
        post(JSON.stringify({ jsonrpc: '2.0', id: 21, method: 'tools/list' })),
        400,
        'BAD_REQUEST',
      ],
      [
        'unknown session',
        post(JSON.stringify({ jsonrpc: '2.0', id: 22, method: 'tools/list' }), { 'mcp-session-id': 'gone' }),
        404,
        'MCP_SESSION_NOT_FOUND',
      ],
      [
        'second initialize',
        post(JSON.stringify(init(23)), { 'mcp-session-id': session }),
        400,
        'BAD_REQUEST',
      ],
      [
        'unknown protocol version',
        post(JSON.stringify({ jsonrpc: '2.0', id: 24, method: 'tools/list' }), {
          'mcp-session-id': session,
          'mcp-protocol-version': '1999-01-01',
        }),
        400,
        'BAD_REQUEST',
      ],
      [
        'no event streams accepted',
        post(JSON.stringify({ jsonrpc: '2.0', id: 25, method: 'tools/list' }), {
          accept: 'application/json',
          'mcp-session-id': session,
        }),
        406,
        'NOT_ACCEPTABLE',
      ],
      [
        'not JSON-RPC',
        post(JSON.stringify({ id: 26, method: 'tools/list' }), { 'mcp-session-id': session }),
        400,
        'BAD_REQUEST',
      ],
      ['an empty batch', post('[]', { 'mcp-session-id': session }), 400, 'BAD_REQUEST'],
    ];
    for (const [what, pending, status, code] of cases) {
      const r = await pending;
      expect(r.status, what).toBe(status);
      expect(r.body?.error?.data?.code, `${what}: ${r.text}`).toBe(code);
    }
    const empty = rpcError(await post('[]', { 'mcp-session-id': session }), null);
    expect(empty.code).toBe(-32600);
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${s.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${T}`, accept: 'text/event-stream' },
      });
      const body = await r.json();
      expect(r.status, method).toBe(400);
      expect(body.error?.data?.code, method).toBe('BAD_REQUEST');
    }
  });

  it('a tools/call whose params are not an object naming a tool is invalid params naming the field, not an internal error', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'list_manifests', arguments: 'x' }, 'body.params.arguments'],
      [{ name: 'list_manifests', arguments: [] }, 'body.params.arguments'],
      [{ arguments: {} }, 'body.params.name'],
      [[], 'body.params'],
      ['list_manifests', 'body.params'],
    ];
    let id = 40;
    for (const [params, path] of cases) {
      id++;
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }), {
        'mcp-session-id': session,
      });
      expect(r.status, r.text).toBe(400);
      const e = rpcError(r, id) as { code: number; data?: { code?: string; details?: { path: string }[] } };
      expect(e.code, r.text).toBe(-32602);
      expect(e.data?.code).toBe('BAD_REQUEST');
      expect(e.data?.details?.[0].path).toBe(path);
    }
    // arguments left out stay the tool's business
    const r = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'list_manifests' } }),
      {
        'mcp-session-id': session,
      },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('"result"');
  });

  it('a wrong token keeps the API answer with its challenge', async () => {
    const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/list' }), {
      authorization: 'Bearer wrong',
    });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
  });

  it('a request that is fine is still answered with its result', async () => {
    const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/list' }), {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(r.status).toBe(200);
    const msg = r.text.includes('data:') ? JSON.parse(r.text.split('data: ')[1].split('\n')[0]) : r.body;
    expect(msg.id).toBe(11);
    expect(Array.isArray(msg.result.tools)).toBe(true);
  });
});
