/**
 * A day in a query must be a day of the calendar: 2026-02-30, 2025-02-29 or 2026-13-01 is 400
 * BAD_REQUEST naming the parameter, never read as another day (one shared schema, CalendarDay).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const ADMIN = 'admin-dates-token';

beforeAll(async () => {
  s = await startServer({ env: { KLEBB_ADMIN_TOKEN: ADMIN } });
});
afterAll(async () => {
  await s?.close();
});

describe('days in queries', () => {
  it('summary refuses an impossible from or to, naming it', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-30&to=2026-03-01', 'query.from'],
      ['from=2025-02-29&to=2025-03-01', 'query.from'],
      ['from=2026-01-01&to=2026-13-01', 'query.to'],
      ['from=2026-04-31&to=2026-05-01', 'query.from'],
      ['from=2026-01-00&to=2026-01-02', 'query.from'],
      ['from=2026-1-1&to=2026-01-02', 'query.from'],
    ];
    for (const [q, path] of cases) {
      const r = await s.api(`/api/summary?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code, q).toBe('BAD_REQUEST');
      expect(r.body.details, q).toEqual([
        { path, message: 'must be a day of the calendar written YYYY-MM-DD' },
      ]);
    }
    expect((await s.api('/api/summary?from=2024-02-29&to=2024-03-01')).status).toBe(200);
  });

  it('the card gallery refuses an impossible today', async () => {
    const r = await s.api('/api/templates?today=2026-02-30');
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'query.today', message: 'must be a day of the calendar written YYYY-MM-DD' },
    ]);
    expect((await s.api('/api/templates?today=2024-02-29')).status).toBe(200);
  });

  it('the feedback list refuses a since on an impossible day', async () => {
    const bad = await s.api('/api/admin/feedback?since=2026-02-30T00:00:00Z', { token: ADMIN });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0]?.path).toBe('query.since');
    expect((await s.api('/api/admin/feedback?since=2026-02-28T00:00:00Z', { token: ADMIN })).status).toBe(
      200,
    );
  });
});
