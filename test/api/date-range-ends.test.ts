/**
 * Ranges of days that reach the first or last day a date can be written with (0000-01-01,
 * 9999-12-31). Day text is compared as text, which holds for four-digit years only: the doctor
 * summary read from `to` + 2 days (for instants written in another zone), which for
 * to=9999-12-30 was `+010000-01-01` and sorted before every day, so the summary came back empty
 * without a word. The admin feedback list read `since=+010000-01-01T00:00:00Z` as a stamp that
 * sorts before every note, and returned them all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

const T = 'date-range-token';
const ADMIN = 'date-range-admin-token';
let s: TestServer;
const agent = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const summaryDays = async (from: string, to: string) => {
  const r = await agent(`/api/summary?from=${from}&to=${to}&cards=weight`);
  expect(r.status, `${from}..${to}`).toBe(200);
  return r.body.cards[0].rows.map((x: { date: string }) => x.date);
};

beforeAll(async () => {
  // rows of a card file written by hand (every write through the server refuses a day past 2099)
  const data = ['2026-01-01', '2026-01-02', '9999-12-31'].map((date) => ({ date, kg: 70 }));
  s = await startServer({
    env: { AGENT_API_TOKEN: T, KLEBB_ADMIN_TOKEN: ADMIN },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      const { meta, ...rest } = readTemplate('weight') as { meta: Record<string, unknown> };
      const { template: _t, ...plain } = meta;
      fs.writeFileSync(path.join(dataDir, 'weight.json'), JSON.stringify({ ...rest, meta: plain, data }));
    },
  });
  expect((await agent('/api/manifests/weight/data')).body.data).toHaveLength(3);
});
afterAll(async () => {
  await s?.close();
});

describe('the doctor summary at the ends of the calendar', () => {
  it('a range ending on the last days of year 9999 gives its rows', async () => {
    expect(await summaryDays('2026-01-01', '9999-12-30')).toEqual(['2026-01-01', '2026-01-02']);
    expect(await summaryDays('2026-01-01', '9999-12-29')).toEqual(['2026-01-01', '2026-01-02']);
    expect(await summaryDays('2026-01-01', '9999-12-31')).toEqual(['2026-01-01', '2026-01-02', '9999-12-31']);
    expect(await summaryDays('9999-12-31', '9999-12-31')).toEqual(['9999-12-31']);
  });

  it('a range starting on 0000-01-01 gives its rows', async () => {
    expect(await summaryDays('0000-01-01', '2026-12-31')).toEqual(['2026-01-01', '2026-01-02']);
    expect(await summaryDays('0000-01-01', '9999-12-31')).toHaveLength(3);
  });

  it('a day with more than four digits of year, or a sign, is 400 naming it', async () => {
    for (const [q, path] of [
      ['from=2026-01-01&to=10000-01-01', 'query.to'],
      ['from=-0001-01-01&to=2026-01-01', 'query.from'],
      ['from=%2B2026-01-01&to=2026-01-02', 'query.from'],
    ]) {
      const r = await agent(`/api/summary?${q}&cards=weight`);
      expect(r.status, q).toBe(400);
      expect(r.body.details[0].path, q).toBe(path);
    }
  });
});

describe('the feedback list since an instant past year 9999', () => {
  it('is 400 naming query.since, not every note', async () => {
    expect((await agent('/api/feedback', { json: { intent: 'a note' } })).status).toBe(201);
    for (const since of ['+010000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
      const r = await s.api(`/api/admin/feedback?since=${encodeURIComponent(since)}`, { token: ADMIN });
      expect(r.status, since).toBe(400);
      expect(
        r.body.details.map((d: { path: string }) => d.path),
        since,
      ).toEqual(['query.since']);
    }
    const all = await s.api(`/api/admin/feedback?since=${encodeURIComponent('0000-01-01T00:00:00Z')}`, {
      token: ADMIN,
    });
    expect(all.body.entries).toHaveLength(1);
    const none = await s.api(`/api/admin/feedback?since=${encodeURIComponent('9999-12-31T23:59:59Z')}`, {
      token: ADMIN,
    });
    expect(none.body.entries).toEqual([]);
  });
});
