/**
 * GET /api/manifests/:id/rows with a query parameter it does not take (`from`, `to`, `date`, a
 * misspelt `limt`) is 400 naming it, as /api/changes answers: before, it was ignored, so a reader
 * asking for one month got every row and no word that the filter was not applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W' },
      data: [
        { date: '2026-04-20', kg: 80 },
        { date: '2026-05-21', kg: 81 },
      ],
    },
  });
});
afterAll(async () => {
  await s.close();
});

describe('reading rows with a parameter the route does not take', () => {
  for (const [query, field] of [
    ['from=2026-05-01&to=2026-05-31', 'query.from'],
    ['date=2026-05-21', 'query.date'],
    ['limt=1', 'query.limt'],
  ] as const) {
    it(`?${query} is 400 naming ${field}`, async () => {
      const r = await s.api(`/api/manifests/w/rows?${query}`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(field);
      expect(r.body.error).toContain('is not a known field');
    });
  }

  it('the parameters it takes still work', async () => {
    const r = await s.api(`/api/manifests/w/rows?path=&order=asc&limit=1&offset=1`);
    expect(r.status).toBe(200);
    expect(r.body.rows).toEqual([{ date: '2026-05-21', kg: 81 }]);
  });
});
