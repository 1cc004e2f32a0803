/**
 * A medication whose schedule changes is judged day by day by the schedule it had that day: the
 * write that changes it (an agent's PATCH /rows, a whole data block, the chat's update_row) keeps
 * the old schedule in the item's `schedule_history`, in force until yesterday (the person's), so
 * the doctor's summary and the card's own adherence do not read four weeks of a weekly vitamin,
 * taken every week, as three weeks of missed daily doses once it is moved to every day. A
 * schedule that saw no day before today (set up today, changed twice today) is not kept, the old
 * schedule goes with the change in one change set (one undo), and a dose ticked off keeps nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { manifest, type ToolEnv, toolEnv } from '../tools/harness.js';

const T = 'schedule-changed-token';
let t: ToolEnv;
const agent = (p: string, init: Record<string, unknown> = {}) => t.s.api(p, { token: T, ...init });
const today = todayIn('UTC');
const day = (n: number) => addDays(today, n);
const weekday = (d: string) =>
  ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${d}T00:00:00Z`).getUTCDay()];
const taken = (d: string) => ({ scheduledDate: d, takenAt: `${d}T08:00:00` });
const WEEKLY = { type: 'weekly', on_days: [weekday(day(-7))], start_date: day(-28) };
const DAILY = { type: 'daily' };
/** DAILY as a merge patch over WEEKLY: the keys it no longer has are nulled. */
const TO_DAILY = { type: 'daily', on_days: null, start_date: null };

/** The meds card: a vitamin taken every week for four weeks, on its weekday. */
const meds = () =>
  manifest(
    'meds',
    {
      items: [{ name: 'Vitamin D', schedule: WEEKLY, doses: [-28, -21, -14, -7].map((n) => taken(day(n))) }],
    },
    { view: { enabled: true, component: 'schedule-card' } },
  );
const item = async () => (await agent('/api/manifests/meds/data')).body.data.items[0];
const adherence = async () => {
  const r = await agent(`/api/summary?from=${day(-27)}&to=${today}&cards=meds`);
  expect(r.status, r.text).toBe(200);
  return r.body.cards[0].adherence[0];
};

beforeAll(async () => {
  t = await toolEnv({ env: { AGENT_API_TOKEN: T } });
  expect((await agent('/api/user/tz', { json: { tz: 'UTC' } })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await agent('/api/manifests/meds', { method: 'DELETE' });
  const r = await agent('/api/manifests', { json: meds() });
  expect(r.status, r.text).toBe(201);
});

describe('a schedule changed today', () => {
  it('keeps the old one until yesterday, so the weeks before are judged by it', async () => {
    expect(await adherence()).toMatchObject({ scheduled: 3, taken: 3, rate: 1 });
    const r = await agent('/api/manifests/meds/rows', {
      method: 'PATCH',
      json: { path: 'items[name="Vitamin D"]', changes: { schedule: TO_DAILY } },
    });
    expect(r.status, r.text).toBe(200);
    const it1 = await item();
    expect(it1.schedule).toEqual(DAILY);
    expect(it1.schedule_history).toEqual([{ until: day(-1), schedule: WEEKLY }]);
    // three weekly doses due and taken; today counts only what was taken (nothing yet)
    expect(await adherence()).toMatchObject({ scheduled: 3, taken: 3, rate: 1 });
    const etag = (await agent('/api/manifests/meds/data')).headers.get('etag');
    expect(r.headers.get('etag')).toBe(etag);
  });

  it('a second change the same day keeps only the schedule the days before had', async () => {
    for (const schedule of [TO_DAILY, { type: 'every_n_days', interval_days: 2, start_date: today }]) {
      const r = await agent('/api/manifests/meds/rows', {
        method: 'PATCH',
        json: { path: 'items[name="Vitamin D"].schedule', changes: schedule },
      });
      expect(r.status, r.text).toBe(200);
    }
    expect((await item()).schedule_history).toEqual([{ until: day(-1), schedule: WEEKLY }]);
    // tracking began with the first schedule, not with the new count's start today
    expect(await adherence()).toMatchObject({ scheduled: 3, taken: 3 });
  });

  it('a whole data block and the chat keep it too, and one undo takes both back', async () => {
    const data = (await agent('/api/manifests/meds/data')).body.data;
    data.items[0].schedule = DAILY;
    expect((await agent('/api/manifests/meds/data', { json: { data } })).status).toBe(200);
    expect((await item()).schedule_history).toEqual([{ until: day(-1), schedule: WEEKLY }]);
    const sets = (await agent('/api/changes?card=meds&limit=1')).body.changeSets;
    expect((await agent(`/api/changes/${sets[0].id}/undo`, { method: 'POST' })).status).toBe(200);
    const back = await item();
    expect(back.schedule).toEqual(WEEKLY);
    expect(back.schedule_history).toBeUndefined();
    const chat = await t.call('update_row', {
      id: 'meds',
      path: 'items[name="Vitamin D"]',
      changes: { schedule: { ...WEEKLY, on_days: ['Mon', 'Thu'] } },
    });
    expect(chat.json.ok, chat.content).toBe(true);
    expect((await item()).schedule_history).toEqual([{ until: day(-1), schedule: WEEKLY }]);
  });

  it('a schedule set up today and changed today, or a dose ticked off, keeps nothing', async () => {
    const fresh = manifest(
      'fresh',
      { items: [{ name: 'Iron', schedule: { type: 'daily', start_date: today } }] },
      {},
    );
    expect((await agent('/api/manifests', { json: fresh })).status).toBe(201);
    await agent('/api/manifests/fresh/rows', {
      method: 'PATCH',
      json: { path: 'items[name="Iron"]', changes: { schedule: WEEKLY } },
    });
    const iron = (await agent('/api/manifests/fresh/data')).body.data.items[0];
    expect(iron.schedule_history).toBeUndefined();
    const tick = await agent('/api/manifests/meds/rows', {
      json: { path: 'items[name="Vitamin D"].doses', value: taken(today) },
    });
    expect(tick.status, tick.text).toBe(201);
    expect((await item()).schedule_history).toBeUndefined();
  });
});

describe('a card-level schedule changed by a manifest patch', () => {
  it('keeps the old one in meta.schedule_history, so the summary judges the weeks before by it', async () => {
    const card = manifest(
      'shots',
      [-28, -21, -14, -7].map((n) => ({ date: day(n), site: 'arm' })),
      { label: 'Shots', schedule: WEEKLY },
    );
    await agent('/api/manifests/shots', { method: 'DELETE' });
    expect((await agent('/api/manifests', { json: card })).status).toBe(201);
    const patch = await agent('/api/manifests/shots', {
      method: 'PATCH',
      json: { meta: { schedule: TO_DAILY } },
    });
    expect(patch.status, patch.text).toBe(200);
    const meta = (await agent('/api/manifests/shots')).body.meta;
    expect(meta.schedule).toEqual(DAILY);
    expect(meta.schedule_history).toEqual([{ until: day(-1), schedule: WEEKLY }]);
    const r = await agent(`/api/summary?from=${day(-27)}&to=${today}&cards=shots`);
    expect(r.body.cards[0].adherence[0]).toMatchObject({ scheduled: 3, taken: 3, rate: 1 });
    // a patch of anything else keeps the history as it is
    await agent('/api/manifests/shots', { method: 'PATCH', json: { meta: { label: 'Injections' } } });
    expect((await agent('/api/manifests/shots')).body.meta.schedule_history).toEqual(meta.schedule_history);
  });
});
