/**
 * A row appended at the top of a card whose rows are kept in day order goes to its day's place,
 * as entries and the phone's rows do: an agent back-filling a forgotten day (REST, the chat's
 * append_row) must not make that day read as the newest row. Newest-first reads, the assistant's
 * lastNDelta and the dashboard's latest-rows read all rely on the order. Rows of a card kept in
 * another order, and rows without a real date, still go last. An undone removal puts its row back
 * among the rows of its day, also when days filled in since moved the rows. A row whose date an
 * update moves to another day moves to that day's place by the same rule, and its undo puts it
 * back where it was.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from '../tools/harness.js';

const T = 'day-order-token';
let t: ToolEnv;

const agent = (p: string, init: Record<string, unknown> = {}) => t.s.api(p, { token: T, ...init });
const rows = async (id: string) => (await agent(`/api/manifests/${id}/data`)).body.data;
const append = (id: string, value: unknown) => agent(`/api/manifests/${id}/rows`, { json: { value } });
const patch = (id: string, path: string, changes: unknown) =>
  agent(`/api/manifests/${id}/rows`, { method: 'PATCH', json: { path, changes } });
const days = async (id: string) => (await rows(id)).map((x: { date: string }) => x.date);

async function fresh(id: string, data: unknown[], meta: Record<string, unknown> = {}) {
  await agent(`/api/manifests/${id}`, { method: 'DELETE' });
  const r = await agent('/api/manifests', {
    json: manifest(id, data, {
      label: 'Weight',
      view: { enabled: true, component: 'generic-card' },
      ...meta,
    }),
  });
  expect(r.status, r.text).toBe(201);
}

beforeAll(async () => {
  t = await toolEnv({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await t?.close();
});

describe('a dated row appended to a card kept in day order', () => {
  beforeEach(async () => {
    await fresh('w', [
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-20', kg: 85.4 },
      { date: '2026-04-22', kg: 85.1 },
    ]);
  });

  it('goes to its day, after the rows of that day, and reads newest first in day order', async () => {
    const r = await append('w', { date: '2026-04-19', kg: 90 });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ ok: true, added: 1, totalAfter: 5 });
    expect((await append('w', { date: '2026-04-20T21:00', kg: 86 })).status).toBe(201);
    expect((await append('w', { date: '2026-04-01', kg: 80 })).status).toBe(201);
    expect(await rows('w')).toEqual([
      { date: '2026-04-01', kg: 80 },
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-19', kg: 90 },
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-20', kg: 85.4 },
      { date: '2026-04-20T21:00', kg: 86 },
      { date: '2026-04-22', kg: 85.1 },
    ]);
    const newest = await agent('/api/manifests/w/rows?limit=1');
    expect(newest.body.rows).toEqual([{ date: '2026-04-22', kg: 85.1 }]);
    // the latest day still goes last
    expect((await append('w', { date: '2026-04-23', kg: 85 })).status).toBe(201);
    expect((await rows('w')).at(-1)).toEqual({ date: '2026-04-23', kg: 85 });
  });

  it("through the chat's append_row too, and lastNDelta compares the two latest days", async () => {
    const r = await t.call('append_row', { id: 'w', value: { date: '2026-04-21', kg: 99 } });
    expect(r.json).toMatchObject({ ok: true, added: 1 });
    expect((await rows('w')).map((x: { date: string }) => x.date)).toEqual([
      '2026-04-18',
      '2026-04-20',
      '2026-04-20',
      '2026-04-21',
      '2026-04-22',
    ]);
    const activity = (await t.call('get_recent_activity', {})).json.cards.find(
      (c: { id: string }) => c.id === 'w',
    );
    // 85.1 (22nd) − 99 (21st), not 99 − 85.1 as if the back-filled day were the latest
    expect(activity.lastNDelta).toBe(-13.9);
  });

  it('is one added row in History, and its undo and redo take it out of and back into its place', async () => {
    expect((await append('w', { date: '2026-04-19', kg: 90 })).status).toBe(201);
    const set = (await agent('/api/changes?card=w&limit=1')).body.changeSets[0];
    expect(set.summary).toBe('Added 1 row to Weight');
    const undo = await agent(`/api/changes/${set.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect((await rows('w')).map((x: { date: string }) => x.date)).toEqual([
      '2026-04-18',
      '2026-04-20',
      '2026-04-20',
      '2026-04-22',
    ]);
    const redo = await agent(`/api/changes/${undo.body.changeSet.id}/undo`, { method: 'POST' });
    expect(redo.status, redo.text).toBe(200);
    expect((await rows('w')).map((x: { date: string }) => x.date)).toEqual([
      '2026-04-18',
      '2026-04-19',
      '2026-04-20',
      '2026-04-20',
      '2026-04-22',
    ]);
  });

  it('an undone removal goes back to its day, also after days were filled in before it', async () => {
    const path = encodeURIComponent('[kg=85.5]');
    // remove the first reading of the 20th, then fill in two earlier days
    expect((await agent(`/api/manifests/w/rows?path=${path}`, { method: 'DELETE' })).status).toBe(200);
    const removal = (await agent('/api/changes?card=w&limit=1')).body.changeSets[0];
    expect((await append('w', { date: '2026-04-19', kg: 90 })).status).toBe(201);
    expect((await append('w', { date: '2026-04-01', kg: 80 })).status).toBe(201);
    const undo = await agent(`/api/changes/${removal.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    // back among the readings of its day, where it was (before the 20th's second reading)
    expect(await rows('w')).toEqual([
      { date: '2026-04-01', kg: 80 },
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-19', kg: 90 },
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-20', kg: 85.4 },
      { date: '2026-04-22', kg: 85.1 },
    ]);
  });

  it("follows the card's own date field", async () => {
    await fresh(
      'when',
      [
        { when: '2026-04-18T08:00', v: 1 },
        { when: '2026-04-20T08:00', v: 2 },
      ],
      { view: { enabled: true, component: 'list-card', dateField: 'when' } },
    );
    expect((await append('when', { when: '2026-04-19T07:30', v: 3 })).status).toBe(201);
    expect((await rows('when')).map((x: { v: number }) => x.v)).toEqual([1, 3, 2]);
  });
});

describe('a row whose date an update moves to another day', () => {
  beforeEach(async () => {
    await fresh('w', [
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-20', kg: 85.4 },
      { date: '2026-04-22', kg: 85.1 },
    ]);
  });

  it('moves to its day through REST PATCH, after the rows of that day, with the same answer', async () => {
    const r = await patch('w', '[kg=85.1]', { date: '2026-04-19' });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['after', 'etag', 'id', 'ok']);
    expect(r.body.after).toEqual({ date: '2026-04-19', kg: 85.1 });
    expect(await rows('w')).toEqual([
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-19', kg: 85.1 },
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-20', kg: 85.4 },
    ]);
    // the newest row by position is the latest day again
    expect((await agent('/api/manifests/w/rows?limit=1')).body.rows).toEqual([
      { date: '2026-04-20', kg: 85.4 },
    ]);
    // forward past the latest day: last; onto a day with rows: after them
    expect((await patch('w', '[kg=85.3]', { date: '2026-04-25T07:00' })).status).toBe(200);
    expect((await patch('w', '[kg=85.1]', { date: '2026-04-20' })).status).toBe(200);
    expect((await rows('w')).map((x: { kg: number }) => x.kg)).toEqual([85.5, 85.4, 85.1, 85.3]);
  });

  it("through the chat's update_row too, and lastNDelta compares the two latest days", async () => {
    const r = await t.call('update_row', {
      id: 'w',
      path: '[kg=85.1]',
      changes: { date: '2026-04-21', kg: 99 },
    });
    expect(r.json).toEqual({ ok: true, id: 'w', after: { date: '2026-04-21', kg: 99 } });
    const r2 = await t.call('update_row', { id: 'w', path: '[kg=85.3]', changes: { date: '2026-04-23' } });
    expect(r2.json).toMatchObject({ ok: true });
    expect(await days('w')).toEqual(['2026-04-20', '2026-04-20', '2026-04-21', '2026-04-23']);
    const activity = (await t.call('get_recent_activity', {})).json.cards.find(
      (c: { id: string }) => c.id === 'w',
    );
    // 85.3 (23rd) − 99 (21st)
    expect(activity.lastNDelta).toBe(-13.7);
  });

  it('is undone back to where it was, and redone to its day again', async () => {
    expect((await patch('w', '[kg=85.5]', { date: '2026-04-23' })).status).toBe(200);
    expect((await rows('w')).map((x: { kg: number }) => x.kg)).toEqual([85.3, 85.4, 85.1, 85.5]);
    const set = (await agent('/api/changes?card=w&limit=1')).body.changeSets[0];
    const undo = await agent(`/api/changes/${set.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(await rows('w')).toEqual([
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-20', kg: 85.4 },
      { date: '2026-04-22', kg: 85.1 },
    ]);
    const redo = await agent(`/api/changes/${undo.body.changeSet.id}/undo`, { method: 'POST' });
    expect(redo.status, redo.text).toBe(200);
    expect((await rows('w')).map((x: { kg: number }) => x.kg)).toEqual([85.3, 85.4, 85.1, 85.5]);
    const again = await agent(`/api/changes/${redo.body.changeSet.id}/undo`, { method: 'POST' });
    expect(again.status, again.text).toBe(200);
    expect((await rows('w')).map((x: { kg: number }) => x.kg)).toEqual([85.3, 85.5, 85.4, 85.1]);
  });

  it('an undone move back in time returns it to its place too, after days filled in since', async () => {
    expect((await patch('w', '[kg=85.1]', { date: '2026-04-19' })).status).toBe(200);
    const set = (await agent('/api/changes?card=w&limit=1')).body.changeSets[0];
    expect((await append('w', { date: '2026-04-01', kg: 80 })).status).toBe(201);
    const undo = await agent(`/api/changes/${set.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(await days('w')).toEqual(['2026-04-01', '2026-04-18', '2026-04-20', '2026-04-20', '2026-04-22']);
  });

  it("follows the card's own date field", async () => {
    await fresh(
      'when',
      [
        { when: '2026-04-18T08:00', v: 1 },
        { when: '2026-04-20T08:00', v: 2 },
        { when: '2026-04-22T08:00', v: 3 },
      ],
      { view: { enabled: true, component: 'list-card', dateField: 'when' } },
    );
    expect((await patch('when', '[v=3]', { when: '2026-04-19T07:30' })).status).toBe(200);
    expect((await rows('when')).map((x: { v: number }) => x.v)).toEqual([1, 3, 2]);
    const set = (await agent('/api/changes?card=when&limit=1')).body.changeSets[0];
    expect((await agent(`/api/changes/${set.id}/undo`, { method: 'POST' })).status).toBe(200);
    expect((await rows('when')).map((x: { v: number }) => x.v)).toEqual([1, 2, 3]);
  });

  it('stays put on a card kept in another order, without a real date, or within its day', async () => {
    await fresh('desc', [
      { date: '2026-04-22', kg: 85.1 },
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-15', kg: 86 },
    ]);
    expect((await patch('desc', '[kg=85.1]', { date: '2026-04-10' })).status).toBe(200);
    expect((await rows('desc')).map((x: { kg: number }) => x.kg)).toEqual([85.1, 85.3, 86]);
    // a field taken away, and a time added on the same day
    expect((await patch('w', '[kg=85.3]', { date: null })).status).toBe(200);
    expect((await patch('w', '[kg=85.5]', { date: '2026-04-20T23:00' })).status).toBe(200);
    expect((await rows('w')).map((x: { kg: number }) => x.kg)).toEqual([85.3, 85.5, 85.4, 85.1]);
  });
});

describe('rows that keep their place at the end', () => {
  it('a card kept in another order (newest first, by hand) is not reordered', async () => {
    await fresh('desc', [
      { date: '2026-04-22', kg: 85.1 },
      { date: '2026-04-18', kg: 85.3 },
    ]);
    expect((await append('desc', { date: '2026-04-20', kg: 85 })).status).toBe(201);
    expect((await rows('desc')).map((x: { date: string }) => x.date)).toEqual([
      '2026-04-22',
      '2026-04-18',
      '2026-04-20',
    ]);
  });

  it('a row without a real date, or with a date written another way, goes last', async () => {
    await fresh('w', [
      { date: '2026-04-18', kg: 85.3 },
      { date: '2026-04-22', kg: 85.1 },
    ]);
    for (const value of [
      { kg: 1 },
      { date: '2026/04/19', kg: 2 },
      { date: '2026-02-30', kg: 3 },
      { date: 20260419, kg: 4 },
    ]) {
      expect((await append('w', value)).status).toBe(201);
    }
    expect((await rows('w')).map((x: { kg: number }) => x.kg)).toEqual([85.3, 85.1, 1, 2, 3, 4]);
  });
});
