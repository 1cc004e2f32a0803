/**
 * GET /api/summary takes "today" (a schedule's adherence so far) and the days of instants in the
 * zone of the device asking, its X-Klebb-Time-Zone header, as entry writes do; else in the zone
 * reported last. A phone on the other side of the date line from the zone reported last asked
 * for the summary of its own three days: its today's morning dose was counted as a day still to
 * come, or as a finished day with its evening dose missed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'summary-device-zone-token';
let s: TestServer;
// a zone whose date is not UTC's right now: ahead of it from 10:00 UTC, behind it before 11:00
const ZONE = todayIn('Pacific/Kiritimati') !== todayIn('UTC') ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
const today = todayIn(ZONE);
const day = (n: number) => addDays(today, n);
const taken = (d: string) => ({ scheduledDate: d, takenAt: `${d}T08:00:00` });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  // the zone reported last is UTC's; the phone asking is in ZONE
  expect((await s.api('/api/user/tz', { json: { tz: 'UTC' }, token: T })).status).toBe(200);
  const card = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'meds', label: 'Meds' },
    data: {
      items: [
        {
          name: 'Twice a day',
          schedule: { type: 'daily', times_per_day: 2, start_date: day(-2) },
          // both doses two days running, and this morning's
          doses: [day(-2), day(-2), day(-1), day(-1), today].map(taken),
        },
      ],
    },
  };
  expect((await s.api('/api/manifests', { json: card, token: T })).status).toBe(201);
});
afterAll(() => s.close());

describe('GET /api/summary from a device in another zone', () => {
  it("counts the adherence as of that device's today", async () => {
    const r = await s.api(`/api/summary?from=${day(-2)}&to=${today}&cards=meds`, {
      token: T,
      headers: { 'x-klebb-time-zone': ZONE },
    });
    expect(r.status, r.text).toBe(200);
    // today counts only the morning dose taken: the evening one is not missed yet
    expect(r.body.cards[0].adherence[0]).toMatchObject({ scheduled: 5, taken: 5, rate: 1 });
  });

  it('an unknown zone is 400 naming the header', async () => {
    const r = await s.api(`/api/summary?from=${day(-2)}&to=${today}`, {
      token: T,
      headers: { 'x-klebb-time-zone': 'Mars/Olympus' },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.details?.[0]?.path).toBe('headers.x-klebb-time-zone');
  });
});
