/**
 * A number written wrongly in a URL (`0x1`, `007`, `1e3`, words) is refused in the documented
 * words on every route, naming the parameter: "<where> must be a whole number written in decimal
 * digits (like 0 or 25)", never a pattern (`must match pattern "^[1-9]…"`) or another sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'url-number-token';
let s: TestServer;
const WORDS = 'must be a whole number written in decimal digits (like 0 or 25)';

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W', writeable: { fromWebapp: true } },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
});

describe('a whole number written wrongly in a URL', () => {
  const cases: [string, string, string, Record<string, unknown>][] = [
    ['rows offset', '/api/manifests/w/rows?offset=0x1', 'query.offset', {}],
    [
      'an entry index',
      '/api/manifests/w/entries/0x1',
      'params.index',
      { method: 'PUT', json: { entry: {} } },
    ],
    [
      'an entry index with a leading zero',
      '/api/manifests/w/entries/007',
      'params.index',
      { method: 'DELETE' },
    ],
    ['the changes page size', '/api/changes?limit=abc', 'query.limit', {}],
    ['the changes page start', '/api/changes?before=1e3', 'query.before', {}],
    ['a change set to undo', '/api/changes/0x2/undo', 'params.id', { method: 'POST' }],
  ];
  for (const [what, url, at, init] of cases) {
    it(`${what}: 400 in the documented words naming ${at}`, async () => {
      const r = await s.api(url, { token: T, ...init });
      expect(r.status, r.text).toBe(400);
      expect(r.body.details).toEqual([{ path: at, message: WORDS }]);
      expect(r.body.error).toBe(`${at} ${WORDS}`);
    });
  }

  it('a whole number out of range says the range', async () => {
    const zero = await s.api('/api/changes?limit=0', { token: T });
    expect(zero.status).toBe(400);
    // in words, not the schema checker's '>= 1', and the top line says what details say
    expect(zero.body.details).toEqual([{ path: 'query.limit', message: 'must be at least 1' }]);
    expect(zero.body.error).toBe('query.limit must be at least 1');
    const big = await s.api('/api/changes?limit=101', { token: T });
    expect(big.body.details).toEqual([{ path: 'query.limit', message: 'must be at most 100' }]);
    expect(big.body.error).toBe('query.limit must be at most 100');
    const noSet = await s.api('/api/changes/0/undo', { token: T, method: 'POST' });
    expect(noSet.status).toBe(400);
    expect(noSet.body.details).toEqual([{ path: 'params.id', message: 'must be at least 1' }]);
    const huge = await s.api('/api/changes/99999999999999999999/undo', { token: T, method: 'POST' });
    expect(huge.body.details).toEqual([{ path: 'params.id', message: 'must be at most 9007199254740991' }]);
  });
});
