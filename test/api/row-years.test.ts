/**
 * A row dated outside the days Klebb takes (1900-01-01 to 2099-12-31: 9999-01-01, 0000-01-01, a
 * year typed wrong) is refused on every write path alike, 422 INVALID_ENTRY naming the date and
 * nothing stored: an agent's REST row append and update, a whole data block (REST and the chat's
 * write_manifest_data), a card created with its rows. And a row dated after today (planned ahead
 * by an agent) is not the card's latest entry: it neither hides that the card went stale nor
 * becomes its last entry date.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { recentActivity } from '../../src/insights/recent-activity.js';
import { manifest, type ToolEnv, toolEnv } from '../tools/harness.js';

const T = 'row-years-token';
const OUTSIDE = ['9999-01-01', '0000-01-01', '2100-01-01', '1899-12-31', '0050-03-01T10:00:00Z'];
let t: ToolEnv;
const agent = (p: string, init: Record<string, unknown> = {}) => t.s.api(p, { token: T, ...init });
const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);
const ROWS = [{ date: '2026-01-01', kg: 70 }];
const rows = async () => (await agent('/api/manifests/w/data')).body.data;

beforeAll(async () => {
  t = await toolEnv({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await agent('/api/manifests/w', { method: 'DELETE' });
  const r = await agent('/api/manifests', {
    json: manifest('w', ROWS, { view: { enabled: true, component: 'generic-card' } }),
  });
  expect(r.status, r.text).toBe(201);
  t.asked.length = 0;
});

describe('a row dated outside 1900-01-01 to 2099-12-31', () => {
  it.each(OUTSIDE)('%s is refused on REST /rows, appended or updated by an agent', async (date) => {
    const add = await agent('/api/manifests/w/rows', { json: { path: '', value: { date, kg: 1 } } });
    expect(add.status, add.text).toBe(422);
    expect(add.body.code).toBe('INVALID_ENTRY');
    expect(paths(add)).toEqual(['body.value.date']);
    const move = await agent('/api/manifests/w/rows', {
      method: 'PATCH',
      json: { path: '[index=0]', changes: { date } },
    });
    expect(move.status, move.text).toBe(422);
    expect(paths(move)).toEqual(['body.changes.date']);
    expect(await rows()).toEqual(ROWS);
  });

  it.each(OUTSIDE)('%s is refused in a whole data block and a new card', async (date) => {
    const data = [...ROWS, { date, kg: 1 }];
    const whole = await agent('/api/manifests/w/data', { json: { data } });
    expect(whole.status, whole.text).toBe(422);
    expect(paths(whole)).toEqual(['body.data[1].date']);
    const created = await agent('/api/manifests', { json: manifest('n', data) });
    expect(created.status, created.text).toBe(422);
    expect(JSON.stringify(paths(created))).toContain('data[1].date');
    expect((await agent('/api/manifests/n')).status).toBe(404);
    expect(await rows()).toEqual(ROWS);
  });

  it('is refused by the chat tools, before any approval', async () => {
    const whole = await t.call('write_manifest_data', { id: 'w', data: [{ date: '9999-01-01', kg: 1 }] });
    expect(whole.json.code, whole.content).toBe('INVALID_ENTRY');
    expect(t.asked).toEqual([]);
    const add = await t.call('append_row', { id: 'w', path: '', value: { date: '0000-01-01', kg: 1 } });
    expect(add.json.code, add.content).toBe('INVALID_ENTRY');
    expect(await rows()).toEqual(ROWS);
  });

  it('the first and last day are taken', async () => {
    for (const date of ['1900-01-01', '2099-12-31']) {
      const r = await agent('/api/manifests/w/rows', { json: { path: '', value: { date, kg: 1 } } });
      expect(r.status, r.text).toBe(201);
    }
  });
});

describe('a date written with spaces around it, or text after it', () => {
  const PADDED = [
    ' 2100-01-01',
    '2100-01-01 ',
    '\t2100-01-01',
    '\u00a02100-01-01\n',
    '2100-01-01abc',
    '9999-01-01T10:00 ',
  ];

  it.each(PADDED)('%j is refused like 2100-01-01 on every program write', async (date) => {
    const add = await agent('/api/manifests/w/rows', { json: { path: '', value: { date, kg: 1 } } });
    expect(add.status, add.text).toBe(422);
    expect(paths(add)).toEqual(['body.value.date']);
    const move = await agent('/api/manifests/w/rows', {
      method: 'PATCH',
      json: { path: '[index=0]', changes: { date } },
    });
    expect(move.status, move.text).toBe(422);
    const whole = await agent('/api/manifests/w/data', { json: { data: [...ROWS, { date, kg: 1 }] } });
    expect(whole.status, whole.text).toBe(422);
    expect(paths(whole)).toEqual(['body.data[1].date']);
    const created = await agent('/api/manifests', { json: manifest('n', [{ date, kg: 1 }]) });
    expect(created.status, created.text).toBe(422);
    const chat = await t.call('append_row', { id: 'w', path: '', value: { date, kg: 1 } });
    expect(chat.json.code, chat.content).toBe('INVALID_ENTRY');
    expect(await rows()).toEqual(ROWS);
  });

  it('a day within the range is stored without the spaces, so it is filed on its day', async () => {
    const add = await agent('/api/manifests/w/rows', {
      json: { path: '', value: { date: ' 2026-01-03', kg: 2 } },
    });
    expect(add.status, add.text).toBe(201);
    const move = await agent('/api/manifests/w/rows', {
      method: 'PATCH',
      json: { path: '[index=0]', changes: { date: '2026-01-02\t' } },
    });
    expect(move.status, move.text).toBe(200);
    expect(await rows()).toEqual([
      { date: '2026-01-02', kg: 70 },
      { date: '2026-01-03', kg: 2 },
    ]);
    const whole = await agent('/api/manifests/w/data', { json: { data: [{ date: '2026-01-05 ', kg: 3 }] } });
    expect(whole.status, whole.text).toBe(200);
    expect(await rows()).toEqual([{ date: '2026-01-05', kg: 3 }]);
    const summary = await agent('/api/summary?from=2026-01-05&to=2026-01-05&cards=w');
    expect(summary.body.cards[0].rows).toEqual([{ date: '2026-01-05', kg: 3 }]);
  });
});

describe('a row dated after today', () => {
  it('is not the latest entry, and does not hide that the card went stale', async () => {
    const today = todayIn('UTC');
    const days = [-12, -11, -10].map((n) => addDays(today, n));
    const planned = addDays(today, 5);
    const card = manifest(
      'plan',
      [...days, planned].map((date) => ({ date, kg: 70 })),
      { view: { enabled: true, component: 'generic-card' }, cadence: { expectDays: 2 } },
    );
    expect((await agent('/api/manifests', { json: card })).status).toBe(201);
    const act = recentActivity(t.s.inst.cards, 'UTC').cards.find((c) => c.id === 'plan');
    expect(act).toMatchObject({ lastEntryDate: days[2], ageDays: 10 });
    const stale = (await t.s.api('/api/hygiene')).body.findings as { cardId: string; kind: string }[];
    expect(stale).toContainEqual(expect.objectContaining({ cardId: 'plan', kind: 'stale' }));
  });
});
