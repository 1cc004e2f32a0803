/**
 * Paging through a card's rows while they change: the next page sent with the first page's ETag
 * as If-Match is 412 once a row was added or removed in between (with the offset counted from the
 * newest, a row added meant the second page repeated the first's last row; a row removed, one
 * skipped), and the page as asked while nothing changed. Without If-Match nothing changes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'paging-token';
let s: TestServer;
const api = (path: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(path, { token: T, ...init });

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    date: `2026-04-${String(i + 1).padStart(2, '0')}`,
    kg: 80 + i / 10,
  }));

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'Weight', writeable: { fromWebapp: true } },
      data: days(6),
    },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const page = (offset: number, ifMatch?: string) =>
  api(`/api/manifests/w/rows?limit=2&offset=${offset}`, { headers: ifMatch ? { 'If-Match': ifMatch } : {} });

it('the next page with an unchanged ETag is the page asked for', async () => {
  const first = await page(0);
  const etag = first.headers.get('etag') ?? '';
  expect(first.body.rows.map((r: { date: string }) => r.date)).toEqual(['2026-04-06', '2026-04-05']);
  const second = await page(2, etag);
  expect(second.status).toBe(200);
  expect(second.body.rows.map((r: { date: string }) => r.date)).toEqual(['2026-04-04', '2026-04-03']);
  expect(second.headers.get('etag')).toBe(etag);
});

it('a row added between pages: the next page with the first ETag is 412, not a repeated row', async () => {
  const first = await page(0);
  const etag = first.headers.get('etag') ?? '';
  expect(
    (await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-07', kg: 81 } } })).status,
  ).toBe(201);
  const second = await page(2, etag);
  expect(second.status, second.text).toBe(412);
  expect(second.body.code).toBe('PRECONDITION_FAILED');
  // without If-Match the page is read as asked (the offset counts from the newest row now)
  expect((await page(2)).status).toBe(200);
});

it('a row removed between pages: 412, not a skipped row', async () => {
  const first = await page(0);
  const etag = first.headers.get('etag') ?? '';
  const del = await api(`/api/manifests/w/rows?path=${encodeURIComponent('[date="2026-04-07"]')}`, {
    method: 'DELETE',
  });
  expect(del.status, del.text).toBe(200);
  expect((await page(2, etag)).status).toBe(412);
});

it('If-Match: * and a list holding the current ETag match; a malformed one is 400', async () => {
  const etag = (await page(0)).headers.get('etag') ?? '';
  expect((await page(2, '*')).status).toBe(200);
  expect((await page(2, `"v1", ${etag}`)).status).toBe(200);
  const bad = await page(2, 'v5');
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('BAD_IF_MATCH');
});
