/**
 * A query parameter sent more than once (?limit=1&limit=2, ?cards=bp&cards=weight, as some
 * clients write a list) is 400 BAD_REQUEST saying so, with the values, on every route that reads
 * a query: not "must be string" or a type message for a value that was written right twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer({});
  const r = await s.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

describe('a query parameter given twice', () => {
  it('is refused naming it, how often and with what, whatever the field takes', async () => {
    const cases: [string, string, string][] = [
      ['/api/summary?from=2026-12-01&to=2026-12-02&cards=weight&cards=bp', 'query.cards', '"weight", "bp"'],
      ['/api/changes?limit=1&limit=2', 'query.limit', '"1", "2"'],
      ['/api/manifests/weight/rows?limit=5&limit=5', 'query.limit', '"5", "5"'],
      ['/api/views/view?data=1&data=recent', 'query.data', '"1", "recent"'],
      ['/api/manifests/weight/export.csv?locale=de-DE&locale=en', 'query.locale', '"de-DE", "en"'],
    ];
    for (const [url, path, values] of cases) {
      const r = await s.api(url);
      expect(r.status, url).toBe(400);
      expect(r.body.code, url).toBe('BAD_REQUEST');
      expect(r.body.details, url).toEqual([{ path, message: `is given 2 times (${values}): give it once` }]);
      expect(r.body.error, url).toBe(`${path} is given 2 times (${values}): give it once`);
    }
  });

  it('shows at most three of the values', async () => {
    const r = await s.api(`/api/changes?${Array.from({ length: 500 }, (_, i) => `limit=${i}`).join('&')}`);
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'query.limit', message: 'is given 500 times ("0", "1", "2", …): give it once' },
    ]);
  });

  it('once, each is read as before', async () => {
    expect((await s.api('/api/summary?from=2026-12-01&to=2026-12-02&cards=weight')).status).toBe(200);
    expect((await s.api('/api/changes?limit=2')).status).toBe(200);
    expect((await s.api('/api/views/view?data=recent')).status).toBe(200);
  });
});
