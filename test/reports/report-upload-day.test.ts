/**
 * A report is named for the day it was uploaded in the person's time zone: on a Los Angeles
 * evening (already the next day in UTC) the name starts with that evening's day, as everything
 * else the person sees counts days; before the zone is reported, the server's zone counts.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { settled, upload } from './report-support.js';

let s: TestServer;
const previousTz = process.env.TZ;

beforeAll(async () => {
  // the server's own zone is UTC here; the person's is Los Angeles
  process.env.TZ = 'UTC';
  s = await startServer();
  expect((await s.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
  vi.useFakeTimers({ toFake: ['Date'] });
  // 20:30 on 20 April in Los Angeles, 03:30 on 21 April in UTC
  vi.setSystemTime(new Date('2026-04-21T03:30:00Z'));
});
afterAll(async () => {
  vi.useRealTimers();
  await s?.close();
  process.env.TZ = previousTz;
});

it("names the report for the person's day, not UTC's", async () => {
  const r = await upload(s, 'Lab results.txt', Buffer.from('Ferritin 12 ng/mL\n'));
  expect(r.status, r.text).toBe(202);
  expect(r.body.filename).toBe('2026-04-20-lab-results');
  await settled(s);
  const list = await s.api('/api/reports');
  expect(list.body.reports.map((x: { name: string }) => x.name)).toEqual(['2026-04-20-lab-results']);
});
