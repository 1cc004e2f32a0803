/**
 * A number in a URL (a path parameter, a query value) is read only when written plainly in
 * decimal digits. Spellings JavaScript would also read as a number (a space, a tab, 0x1, 0b1,
 * 1e0, 1.0, +1, 00001, -0) used to name another row than the one meant: a PUT replaced row 0 or 1,
 * a read returned 1000 rows for `limit=1e3`. Each is now 400 naming the parameter, on every route
 * the OpenAPI document lists with a numeric parameter, and the card is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

const T = 'url-numbers-token';
let s: TestServer;
const agent = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const data = async () => (await agent('/api/manifests/weight/data')).body.data;

/** Text that JavaScript's Number() (and Ajv's coercion) reads as a number, but is no plain decimal. */
const MALFORMED = [
  '%20',
  '%09',
  '0x1',
  '0b1',
  '0o1',
  '1e0',
  '1.0',
  '%2B1',
  '00001',
  '-0',
  '1%20',
  '%201',
  'Infinity',
];

interface NumericParameter {
  method: string;
  path: string;
  where: 'path' | 'query';
  name: string;
}

/** Every path or query parameter the OpenAPI document says takes a number. */
async function numericParameters(): Promise<NumericParameter[]> {
  const doc = (await agent('/api/openapi.json')).body;
  const out: NumericParameter[] = [];
  for (const [path, ops] of Object.entries<
    Record<string, { parameters?: { in: string; name: string; schema?: { type?: string } }[] }>
  >(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const p of op.parameters ?? []) {
        if ((p.in === 'path' || p.in === 'query') && ['integer', 'number'].includes(p.schema?.type ?? ''))
          out.push({ method: method.toUpperCase(), path, where: p.in, name: p.name });
      }
    }
  }
  return out;
}

/** The request for `param` written as `text`, the other path parameters naming the weight card. */
function urlFor(p: NumericParameter, text: string): string {
  const path = p.path.replace(/\{(\w+)\}/g, (_, name) =>
    name === p.name && p.where === 'path' ? text : name === 'id' ? 'weight' : '0',
  );
  return p.where === 'query' ? `${path}?${p.name}=${text}` : path;
}

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  expect((await agent('/api/manifests', { json: readTemplate('weight') })).status).toBe(201);
  for (const [date, kg] of [
    ['2026-01-01', 70],
    ['2026-01-02', 71],
    ['2026-01-03', 72],
  ] as const) {
    const r = await agent('/api/manifests/weight/entries', { json: { entry: { date, kg } } });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await s?.close();
});

describe('numbers in the URL', () => {
  it('the routes with numeric parameters are found (the entries index, the rows window)', async () => {
    const found = (await numericParameters()).map((p) => `${p.method} ${p.path} ${p.where}.${p.name}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'PUT /api/manifests/{id}/entries/{index} path.index',
        'DELETE /api/manifests/{id}/entries/{index} path.index',
        'GET /api/manifests/{id}/rows query.limit',
        'GET /api/manifests/{id}/rows query.offset',
      ]),
    );
  });

  it('every spelling that is not plain decimal digits is 400 naming the parameter, and changes nothing', async () => {
    const before = await data();
    const params = await numericParameters();
    const wrong: string[] = [];
    for (const p of params) {
      for (const text of MALFORMED) {
        const r = await agent(urlFor(p, text), {
          method: p.method,
          ...(p.method === 'PUT' ? { json: { entry: { date: '2026-01-09', kg: 80 } } } : {}),
        });
        const named = `${p.where === 'path' ? 'params' : 'query'}.${p.name}`;
        if (r.status !== 400 || r.body?.details?.[0]?.path !== named)
          wrong.push(
            `${p.method} ${urlFor(p, text)} → ${r.status} ${JSON.stringify(r.body?.details ?? r.body)}`,
          );
      }
    }
    expect(wrong).toEqual([]);
    expect(await data()).toEqual(before);
  });

  it('the refusal says how the number must be written', async () => {
    const r = await agent('/api/manifests/weight/rows?offset=0x2');
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'query.offset', message: 'must be a whole number written in decimal digits (like 0 or 25)' },
    ]);
    const e = await agent('/api/manifests/weight/entries/1e0', {
      method: 'PUT',
      json: { entry: { date: '2026-01-09', kg: 80 } },
    });
    expect(e.body.details[0].path).toBe('params.index');
  });

  it('plain decimal digits are read as before', async () => {
    const r = await agent('/api/manifests/weight/rows?limit=2&offset=1&order=asc');
    expect(r.status).toBe(200);
    expect(r.body.rows.map((x: { kg: number }) => x.kg)).toEqual([71, 72]);
    expect((await agent('/api/manifests/weight/rows?limit=0')).body.rows).toEqual([]);
    const put = await agent('/api/manifests/weight/entries/0', {
      method: 'PUT',
      json: { entry: { date: '2026-01-01', kg: 69 } },
    });
    expect(put.status).toBe(200);
    expect((await data())[0]).toEqual({ date: '2026-01-01', kg: 69 });
  });

  it('limit=1e3 is 400, not a thousand rows', async () => {
    const r = await agent('/api/manifests/weight/rows?limit=1e3');
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('query.limit');
  });
});

describe('numbers in a row path and in a replay id', () => {
  it('[index=-0] is BAD_PATH, not the first row', async () => {
    const before = await data();
    const r = await agent(`/api/manifests/weight/rows?path=${encodeURIComponent('[index=-0]')}`, {
      method: 'DELETE',
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_PATH');
    expect(await data()).toEqual(before);
  });

  it('a replay id after= or Last-Event-ID not written in plain digits is 400 naming where it came from', async () => {
    for (const text of ['007', '0x1', '1e0', '%207']) {
      const r = await agent(`/api/chat/turn/some-conversation?after=${text}`);
      expect(r.status, text).toBe(400);
      expect(r.body.details[0].path).toBe('query.after');
    }
    const h = await agent('/api/chat/turn/some-conversation', { headers: { 'last-event-id': '0x1' } });
    expect(h.status).toBe(400);
    expect(h.body.details[0].path).toBe('headers.last-event-id');
    expect((await agent('/api/chat/turn/some-conversation?after=7')).status).toBe(204);
  });
});
