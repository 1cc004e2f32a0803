/**
 * While a restore is being applied the home is frozen: every write, whichever way it comes (an
 * API route, a manual snapshot, an MCP tool call, a tool of a chat turn already running, a
 * request whose body was still arriving when the restore began), is refused with 503
 * IMPORT_FROZEN and a Retry-After, and none of them lands in the restored home or between the
 * pre-import snapshot and the restore. The job is held at a known point (after its pre-import
 * snapshot, before the database step) by holding the card loader's wait for large loads.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KlebbError } from '../../src/errors.js';
import { asClientWork } from '../../src/store/home-freeze.js';
import { importJobEnd } from '../helpers/import-job.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'restore-freeze-token';
let s: TestServer;
let snapshot: string;
let release: () => void = () => {};
let mcpSession = '';

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = async () => (await api('/api/manifests/w/data')).body.data as { kg: number }[];

async function mcp(
  body: object,
  session?: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${s.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${T}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** Starts a POST whose headers are sent now and whose body is finished by the returned function. */
function slowPost(path: string, body: string): { finish: () => Promise<{ status: number; text: string }> } {
  const req = http.request(`${s.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${T}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return {
    finish: async () => {
      req.end(body.slice(half));
      return answered;
    },
  };
}

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W', writeable: { fromWebapp: true } },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
  expect(r.status, r.text).toBe(201);
  snapshot = (await api('/api/backups', { method: 'POST' })).body.snapshot.name;
  // a row added after the snapshot: the restore takes it away again
  expect(
    (await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-02', kg: 81 } } })).status,
  ).toBe(201);
  const init = await mcp({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  mcpSession = init.headers.get('mcp-session-id') ?? '';
  expect(mcpSession).not.toBe('');
  await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }, mcpSession);
});
afterAll(async () => {
  release();
  await s.close();
});

describe('writes while a restore is applied', () => {
  it('are refused with 503 IMPORT_FROZEN and Retry-After, and none lands', async () => {
    // a request whose headers arrived before the restore began and whose body comes after
    const inFlight = slowPost(
      '/api/manifests/w/rows',
      JSON.stringify({ value: { date: '2026-04-03', kg: 82 } }),
    );
    await sleep(50);

    const held = new Promise<void>((r) => {
      release = r;
    });
    const loader = s.inst.cards.loader;
    const real = loader.largeLoadsDone.bind(loader);
    const spy = vi.spyOn(loader, 'largeLoadsDone').mockImplementation(async () => {
      await held;
      return real();
    });
    const go = await api(`/api/backups/${snapshot}/restore`, { json: { confirm: 'REPLACE' } });
    expect(go.status, go.text).toBe(202);
    // wait until the pre-import snapshot is taken and the job waits before the database step
    for (let i = 0; i < 500 && !spy.mock.calls.length; i++) await sleep(10);
    expect(spy).toHaveBeenCalled();

    const refusals: { what: string; status: number; retryAfter: string | null; code: unknown }[] = [];
    const note = (what: string, r: { status: number; headers: Headers; body?: unknown; text: string }) => {
      let code: unknown;
      try {
        const b = JSON.parse(r.text);
        code = b.code ?? b.error?.data?.code;
      } catch {
        code = undefined;
      }
      refusals.push({ what, status: r.status, retryAfter: r.headers.get('retry-after'), code });
    };
    note(
      'append a row',
      await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-04', kg: 83 } } }),
    );
    note('replace the data', await api('/api/manifests/w/data', { json: { data: [] } }));
    note(
      'add an entry',
      await api('/api/manifests/w/entries', { json: { entry: { date: '2026-04-05', kg: 84 } } }),
    );
    note('take a snapshot', await api('/api/backups', { method: 'POST' }));
    const viaMcp = await mcp(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'append_row', arguments: { id: 'w', value: { date: '2026-04-06', kg: 85 } } },
      },
      mcpSession,
    );
    note('an MCP tool call', viaMcp);
    // as a JSON-RPC error that names the request it answers
    expect(JSON.parse(viaMcp.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { data: { code: 'IMPORT_FROZEN' } },
    });
    for (const r of refusals) {
      expect(r, r.what).toMatchObject({ status: 503, code: 'IMPORT_FROZEN' });
      expect(Number(r.retryAfter), `${r.what}: Retry-After`).toBeGreaterThan(0);
    }

    // a write a request started that goes on by itself (a chat turn already running) is refused too
    let inside: unknown;
    try {
      asClientWork(() => s.inst.conversations.create({ title: 'written mid-restore', messages: [] }));
    } catch (err) {
      inside = err;
    }
    expect(inside).toBeInstanceOf(KlebbError);
    expect((inside as KlebbError).code).toBe('IMPORT_FROZEN');

    const late = await inFlight.finish();
    expect(late.status, late.text).toBe(503);
    expect(JSON.parse(late.text).code).toBe('IMPORT_FROZEN');

    release();
    spy.mockRestore();
    expect(await importJobEnd(s, T)).toMatchObject({ state: 'done', kind: 'restore' });
    // the home is the snapshot, and nothing written meanwhile
    expect((await rows()).map((x) => x.kg)).toEqual([80]);
    const titles = (await api('/api/conversations')).body.conversations.map(
      (c: { title: string }) => c.title,
    );
    expect(titles).not.toContain('written mid-restore');
    // and writes go through again
    expect(
      (await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-07', kg: 86 } } })).status,
    ).toBe(201);
  });
});
