/**
 * The chat's append_row and update_row write rows in the person's name: a dated card's row date
 * is read as the entry forms read it (a date with Z or an offset is filed on the person's day in
 * their zone) and a day after the person's today is refused unless the card takes future days.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

const ZONE = 'America/Los_Angeles';
let t: ToolEnv;
let today: string;
const rows = () => t.data('d').then((r) => r.data);

beforeAll(async () => {
  t = await toolEnv();
  t.ctx.timeZone = ZONE;
});
afterAll(async () => {
  await t.close();
});

async function fresh(writeable: Record<string, unknown> = {}) {
  today = todayIn(ZONE);
  await t.call('delete_manifest', { id: 'd' });
  const meta = { view: { component: 'generic-card' }, writeable: { fromWebapp: true, ...writeable } };
  const r = await t.call('create_manifest', {
    manifest: manifest('d', [{ date: addDays(today, -1), kg: 1 }], meta),
  });
  expect(r.json.ok).toBe(true);
}

describe('append_row on a dated card', () => {
  beforeEach(async () => {
    await fresh();
  });

  it("refuses tomorrow (the person's) and changes nothing", async () => {
    const before = await rows();
    const r = await t.call('append_row', { id: 'd', path: '', value: { date: addDays(today, 1), kg: 2 } });
    expect(r.json.code).toBe('DATE_NOT_ALLOWED');
    expect(await rows()).toEqual(before);
  });

  it("refuses an instant that is tomorrow in the person's zone", async () => {
    // noon UTC tomorrow is tomorrow morning in Los Angeles
    const r = await t.call('append_row', {
      id: 'd',
      path: '',
      value: { date: `${addDays(today, 1)}T12:00Z`, kg: 2 },
    });
    expect(r.json.code).toBe('DATE_NOT_ALLOWED');
  });

  it("takes an instant written as tomorrow in UTC that is still today in the person's zone", async () => {
    // 03:30 UTC tomorrow is this evening in Los Angeles
    const r = await t.call('append_row', {
      id: 'd',
      path: '',
      value: { date: `${addDays(today, 1)}T03:30Z`, kg: 2 },
    });
    expect(r.json.ok).toBe(true);
  });

  it('takes today and earlier days', async () => {
    expect((await t.call('append_row', { id: 'd', path: '', value: { date: today, kg: 2 } })).json.ok).toBe(
      true,
    );
    const past = await t.call('append_row', {
      id: 'd',
      path: '',
      value: { date: addDays(today, -30), kg: 2 },
    });
    expect(past.json.ok).toBe(true);
  });

  it('refuses a date that is not in the calendar, naming the date', async () => {
    const r = await t.call('append_row', { id: 'd', path: '', value: { date: '2026-02-30', kg: 2 } });
    expect(r.json.code).toBe('INVALID_ENTRY');
    expect(JSON.stringify(r.json)).toContain('date');
  });
});

describe('update_row on a dated card', () => {
  beforeEach(async () => {
    await fresh();
  });

  it('refuses moving a row to a future day', async () => {
    const path = `[date="${addDays(today, -1)}"]`;
    const r = await t.call('update_row', {
      id: 'd',
      path,
      changes: { date: `${addDays(today, 2)}T08:00-07:00` },
    });
    expect(r.json.code).toBe('DATE_NOT_ALLOWED');
    expect((await rows())[0].date).toBe(addDays(today, -1));
    // other fields still change
    expect((await t.call('update_row', { id: 'd', path, changes: { kg: 3 } })).json.ok).toBe(true);
  });
});

it('a card that takes future days takes them from the chat too', async () => {
  await fresh({ futureAllowed: true });
  const r = await t.call('append_row', { id: 'd', path: '', value: { date: addDays(today, 3), kg: 2 } });
  expect(r.json.ok).toBe(true);
});
