/**
 * A bearer token past its rate limit on `POST /mcp`: the 429 is a JSON-RPC error that repeats
 * the request's id (so an MCP client can match it to its pending request instead of waiting for
 * its own timeout), keeps Retry-After and RATE_LIMITED, and the call it carried never runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-limit-token';
let s: TestServer;

async function post(body: string, session?: string) {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${T}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body,
  });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer whose shape each test checks
  return { status: r.status, headers: r.headers, body: parsed as any, text };
}

const append = (id: number | string, kg: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'append_row', arguments: { id: 'weight', value: { date: '2026-05-01', kg } } },
  });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T, KLEBB_AGENT_RATE_LIMIT: '2' } });
  // this machine (no token) sets up the card and reads it back: only the token's requests count
  const made = await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
      data: [],
    },
  });
  expect(made.status).toBeLessThan(300);
});
afterAll(async () => {
  await s?.close();
});

describe('POST /mcp past the token rate limit', () => {
  it('answers 429 with the request id and Retry-After, and the call is not run', async () => {
    const init = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    expect(init.status, init.text).toBe(200);
    const session = init.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');

    const first = await post(append(2, 80), session);
    expect(first.status, first.text).toBe(200);

    const limited = await post(append('call-3', 81), session);
    expect(limited.status, limited.text).toBe(429);
    expect(limited.body.jsonrpc).toBe('2.0');
    expect(limited.body.id).toBe('call-3');
    expect(limited.body.error.data.code).toBe('RATE_LIMITED');
    expect(limited.body).not.toHaveProperty('result');
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);

    // a body that is not JSON is still refused for the limit (its id cannot be told)
    const broken = await post('{"jsonrpc":', session);
    expect(broken.status, broken.text).toBe(429);
    expect(broken.body.id).toBeNull();
    expect(broken.body.error.data.code).toBe('RATE_LIMITED');

    const rows = await s.api('/api/manifests/weight/data');
    expect(rows.status).toBe(200);
    expect(rows.body.data.map((r: { kg: number }) => r.kg)).toEqual([80]);
  });
});
