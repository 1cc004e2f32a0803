/**
 * GET /api/summary on the real server counts a schedule's adherence as the card's own report
 * does: days before an item was tracked (its start, else its first recorded dose) are not
 * missed doses, nor are days still to come (`to=9999-12-31`, "everything from `from` on", or a
 * range ending next week), nor today's doses not taken yet. The items are the ones the card's
 * report reads: under the key a view's `itemsPath` names, or, for a card of dated rows with a
 * card-level `meta.schedule`, the card itself with each row a dose taken that day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'summary-adherence-token';
const TZ = 'Europe/Berlin';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  s.api(p, { token: T, ...init, headers: { 'x-klebb-time-zone': TZ, ...init.headers } });
const today = todayIn(TZ);
const day = (n: number) => addDays(today, n);
const taken = (d: string) => ({ scheduledDate: d, takenAt: `${d}T08:00:00` });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const card = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'meds', label: 'Meds' },
    data: {
      items: [
        // tracked from its first dose, five days ago; one day missed since
        {
          name: 'Started lately',
          schedule: { type: 'daily' },
          doses: [day(-5), day(-4), day(-2), day(-1)].map(taken),
        },
        // started on a day: from then on every due day counts, taken or not
        { name: 'With a start', schedule: { type: 'daily', start_date: day(-3) }, doses: [taken(day(-3))] },
        // twice a day, one dose taken this morning: the evening one is not missed yet
        {
          name: 'Twice a day',
          schedule: { type: 'daily', times_per_day: 2 },
          doses: [taken(day(-1)), taken(day(-1)), taken(today)],
        },
        // nothing recorded and no start: nobody knows since when it was meant
        { name: 'Never taken', schedule: { type: 'daily' } },
      ],
    },
  };
  expect((await api('/api/manifests', { json: card })).status).toBe(201);
  const elsewhere = {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'elsewhere',
      label: 'Elsewhere',
      reports: { enabled: true, component: 'adherence-report', itemsPath: 'medications' },
    },
    data: { medications: [{ name: 'Kept elsewhere', schedule: { type: 'daily', start_date: day(-2) } }] },
  };
  const injections = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'injections', label: 'Injections', schedule: { type: 'daily' }, view: { dateField: 'day' } },
    data: [day(-4), day(-3), day(-1)].map((d) => ({ day: d, site: 'arm' })),
  };
  for (const c of [elsewhere, injections])
    expect((await api('/api/manifests', { json: c })).status).toBe(201);
});
afterAll(() => s.close());

const adherenceOf = async (from: string, to: string, cards = 'meds') => {
  const res = await api(`/api/summary?from=${from}&to=${to}&cards=${cards}`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(
    res.body.cards
      .flatMap((c: { adherence: { name: string }[] }) => c.adherence)
      .map((a: { name: string }) => [a.name, a]),
  ) as Record<string, { scheduled: number; taken: number; rate: number | null }>;
};

describe('GET /api/summary adherence as of today', () => {
  it('does not count the days before an item was tracked as missed', async () => {
    const a = await adherenceOf(day(-30), day(-1));
    expect(a['Started lately']).toMatchObject({ scheduled: 5, taken: 4, rate: 0.8 });
    expect(a['With a start']).toMatchObject({ scheduled: 3, taken: 1 });
    expect(a['Never taken']).toMatchObject({ scheduled: 0, taken: 0, rate: null });
  });

  it('does not count days to come, nor today’s doses not taken yet', async () => {
    for (const to of [today, day(7), '9999-12-31']) {
      const a = await adherenceOf(day(-30), to);
      expect(a['Started lately'], to).toMatchObject({ scheduled: 5, taken: 4 });
      expect(a['Twice a day'], to).toMatchObject({ scheduled: 3, taken: 3, rate: 1 });
    }
  });

  it('counts nothing for a range wholly to come', async () => {
    const a = await adherenceOf(day(1), day(30));
    expect(a['With a start']).toMatchObject({ scheduled: 0, taken: 0, rate: null });
  });

  it('reads the items where the card keeps them, as its report does', async () => {
    const a = await adherenceOf(day(-30), day(-1), 'elsewhere,injections');
    expect(a['Kept elsewhere']).toMatchObject({ scheduled: 2, taken: 0, rate: 0 });
    // one row a dose: tracked from the first, one day missed since
    expect(a.Injections).toMatchObject({ scheduled: 4, taken: 3, rate: 0.75 });
  });
});
