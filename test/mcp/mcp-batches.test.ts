/**
 * JSON-RPC batches were part of MCP in protocol version 2025-03-26 only. A session that agreed on
 * 2025-06-18 or later refuses a batch with 400 and -32600 saying so (with or without the version
 * header, a batch of notifications too, and when the header names 2025-03-26, the version with
 * batches: the agreed version decides), and nothing in it runs; a 2025-03-26 session still
 * answers one; a batch cannot start a session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-batch-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => s?.close());

const init = (v: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${T}`,
      accept: 'application/json',
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return {
    status: r.status,
    session: r.headers.get('mcp-session-id') ?? '',
    text,
    body: text ? JSON.parse(text) : undefined,
  };
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const append = {
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'list_manifests', arguments: {} },
};

describe('batches', () => {
  it('are refused in a session of 2025-06-18 or later, saying so', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const sid = (await post(init(v))).session;
      for (const header of [{ 'mcp-protocol-version': v }, {}] as Record<string, string>[]) {
        const r = await post([ping(5), append], { 'mcp-session-id': sid, ...header });
        expect(r.status, r.text).toBe(400);
        expect(r.body.error.code).toBe(-32600);
        expect(r.body.error.message).toContain('batches were removed');
        expect(r.body.error.message).toContain(v);
        expect(r.body.error.data.code).toBe('BAD_REQUEST');
        expect(r.body.id).toBeNull();
      }
      const notes = await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }], {
        'mcp-session-id': sid,
        'mcp-protocol-version': v,
      });
      expect(notes.status, notes.text).toBe(400);
      // the session still answers a message sent alone
      const one = await post(ping(6), { 'mcp-session-id': sid, 'mcp-protocol-version': v });
      expect(one.status, one.text).toBe(200);
      expect(one.body.id).toBe(6);
    }
  });

  it('stay refused in a later session when the request claims 2025-03-26 in its header', async () => {
    // the header should repeat the agreed version; one naming the old version (a proxy or a
    // client sending a fixed header) does not turn the session back into one with batches
    for (const v of ['2025-06-18', '2025-11-25']) {
      const sid = (await post(init(v))).session;
      const before = (await s.api('/api/changes')).body.changeSets.length;
      const write = {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: {
          name: 'create_manifest',
          arguments: { manifest: { $schema: 'klebb.datafile.v1', meta: { id: `batch-${v}`, label: 'B' } } },
        },
      };
      const r = await post([ping(5), write], { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.code).toBe(-32600);
      expect(r.body.error.message).toContain('batches were removed');
      expect(r.body.error.message).toContain(v);
      // nothing in it ran
      expect((await s.api(`/api/manifests/batch-${v}`)).status).toBe(404);
      expect((await s.api('/api/changes')).body.changeSets.length).toBe(before);
    }
  });

  it('are refused in a 2025-03-26 session whose request claims a later version', async () => {
    const sid = (await post(init('2025-03-26'))).session;
    const r = await post([ping(7), ping(8)], { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.message).toContain('2025-06-18');
  });

  it('are answered in a 2025-03-26 session', async () => {
    const sid = (await post(init('2025-03-26'))).session;
    const r = await post([ping(7), ping(8)], { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.map((m: { id: number }) => m.id).sort()).toEqual([7, 8]);
  });

  it('cannot start a session', async () => {
    const r = await post([init('2025-03-26')]);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.code).toBe(-32600);
    expect(r.body.error.message).toContain('initialize request on its own');
    expect(r.session).toBe('');
  });
});
