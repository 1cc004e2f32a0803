/**
 * Row tools through dispatchToolCall: read_manifest_rows, append_row,
 * update_row, remove_row, reorder_rows, and the `{error, code, path, id}` shape of row errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
beforeAll(async () => {
  t = await toolEnv();
});
afterAll(async () => {
  await t.close();
});

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    date: `2026-03-${String(i + 1).padStart(2, '0')}`,
    kg: 80 + i / 10,
  }));

async function fresh(id: string, data: unknown, meta: Record<string, unknown> = {}) {
  await t.call('delete_manifest', { id });
  const r = await t.call('create_manifest', { manifest: manifest(id, data, meta) });
  expect(r.json.ok).toBe(true);
}

describe('read_manifest_rows', () => {
  beforeEach(async () => {
    await fresh('w', days(25));
  });

  it('an array over 10 rows: the newest 10, newest first, with total, truncated and window', async () => {
    const r = await t.call('read_manifest_rows', { id: 'w', path: '' });
    expect(r.ok).toBe(true);
    expect(r.cardId).toBe('w');
    expect(r.json.total).toBe(25);
    expect(r.json.truncated).toBe(true);
    expect(r.json.window).toEqual({ order: 'desc', offset: 0, limit: 10 });
    expect(r.json.rows).toHaveLength(10);
    expect(r.json.rows[0]).toEqual({ date: '2026-03-25', kg: 82.4 });
    expect(r.json.rows[9].date).toBe('2026-03-16');
  });

  it('path defaults to the whole block; order asc, limit and offset move the window', async () => {
    const noPath = await t.call('read_manifest_rows', { id: 'w' });
    expect(noPath.json.rows[0].date).toBe('2026-03-25');
    const asc = await t.call('read_manifest_rows', { id: 'w', order: 'asc', limit: 3, offset: 2 });
    expect(asc.json.rows.map((r: { date: string }) => r.date)).toEqual([
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
    ]);
    expect(asc.json.window).toEqual({ order: 'asc', offset: 2, limit: 3 });
    const desc = await t.call('read_manifest_rows', { id: 'w', offset: 24 });
    expect(desc.json.rows).toEqual([{ date: '2026-03-01', kg: 80 }]);
  });

  it("paging with the first page's version: a row added in between is refused, not a shifted page", async () => {
    const first = await t.call('read_manifest_rows', { id: 'w', limit: 10 });
    expect(first.ok).toBe(true);
    expect(Number.isSafeInteger(first.json.version)).toBe(true);
    const v = first.json.version;
    // nothing changed: the second page follows on with the same version
    const second = await t.call('read_manifest_rows', { id: 'w', limit: 10, offset: 10, version: v });
    expect(second.ok).toBe(true);
    expect(second.json.version).toBe(v);
    expect(second.json.rows[0].date).toBe('2026-03-15');
    // a new newest row would push 2026-03-15 onto the third page and repeat it there
    const added = await t.call('append_row', { id: 'w', value: { date: '2026-03-26', kg: 83 } });
    expect(added.json.ok).toBe(true);
    const third = await t.call('read_manifest_rows', { id: 'w', limit: 10, offset: 20, version: v });
    expect(third.ok).toBe(false);
    expect(third.json.code).toBe('PRECONDITION_FAILED');
    expect(third.json.error).toContain('read again from offset 0');
    // reading again from the start gives the new version, and paging on with it works
    const again = await t.call('read_manifest_rows', { id: 'w', limit: 10 });
    expect(again.json.version).not.toBe(v);
    expect(again.json.rows[0].date).toBe('2026-03-26');
    const on = await t.call('read_manifest_rows', {
      id: 'w',
      limit: 10,
      offset: 20,
      version: again.json.version,
    });
    expect(on.json.rows.map((r: { date: string }) => r.date)).toEqual([
      '2026-03-06',
      '2026-03-05',
      '2026-03-04',
      '2026-03-03',
      '2026-03-02',
      '2026-03-01',
    ]);
    // an edit of a row already read (as the docs say: any change to the rows) is refused too, so
    // the pages read together never mix values from before and after it
    const v2 = again.json.version;
    const edited = await t.call('update_row', { id: 'w', path: '[date="2026-03-26"]', changes: { kg: 84 } });
    expect(edited.json.ok).toBe(true);
    const after = await t.call('read_manifest_rows', { id: 'w', limit: 10, offset: 10, version: v2 });
    expect(after.json.code).toBe('PRECONDITION_FAILED');
  });

  it('10 rows or fewer: all of them, truncated:false', async () => {
    await fresh('w', days(10));
    const r = await t.call('read_manifest_rows', { id: 'w', path: '' });
    expect(r.json).toMatchObject({ total: 10, truncated: false });
    expect(r.json.rows).toHaveLength(10);
    expect(r.json.rows[0].date).toBe('2026-03-10');
  });

  it('a filter on an array-rooted card gives {row}; [index=-1] is the last row', async () => {
    const one = await t.call('read_manifest_rows', { id: 'w', path: '[date="2026-03-05"]' });
    expect(one.json).toEqual({ row: { date: '2026-03-05', kg: 80.4 } });
    const last = await t.call('read_manifest_rows', { id: 'w', path: '[index=-1]' });
    expect(last.json).toEqual({ row: { date: '2026-03-25', kg: 82.4 } });
  });

  it('an object comes back as {row} with long sub-arrays replaced by omittedArray', async () => {
    await fresh('sched', {
      items: [
        { name: 'Vitamin D', doses: Array.from({ length: 15 }, (_, i) => ({ n: i })) },
        { name: 'Zinc', doses: [{ n: 1 }, { n: 2 }] },
      ],
      note: 'x',
    });
    const whole = await t.call('read_manifest_rows', { id: 'sched', path: '' });
    expect(whole.json).toEqual({
      row: {
        items: [
          { name: 'Vitamin D', doses: { omittedArray: true, count: 15 } },
          { name: 'Zinc', doses: [{ n: 1 }, { n: 2 }] },
        ],
        note: 'x',
      },
    });
    const item = await t.call('read_manifest_rows', { id: 'sched', path: 'items[name="Vitamin D"]' });
    expect(item.json).toEqual({ row: { name: 'Vitamin D', doses: { omittedArray: true, count: 15 } } });
    // the long array itself is readable as a window
    const doses = await t.call('read_manifest_rows', { id: 'sched', path: 'items[name="Vitamin D"].doses' });
    expect(doses.json).toMatchObject({ total: 15, truncated: true });
    expect(doses.json.rows[0]).toEqual({ n: 14 });
    const prim = await t.call('read_manifest_rows', { id: 'sched', path: 'note' });
    expect(prim.json).toEqual({ value: 'x' });
  });

  it('errors carry {error, code, path, id}', async () => {
    const noMatch = await t.call('read_manifest_rows', { id: 'w', path: '[date="1999-01-01"]' });
    expect(noMatch.ok).toBe(false);
    expect(noMatch.json).toMatchObject({ code: 'NO_MATCH', path: '[date="1999-01-01"]', id: 'w' });
    expect(typeof noMatch.json.error).toBe('string');
    const bad = await t.call('read_manifest_rows', { id: 'w', path: '[date=' });
    expect(bad.json).toMatchObject({ code: 'BAD_PATH', path: '[date=', id: 'w' });
    expect(typeof bad.json.error).toBe('string');
  });
});

describe('append_row', () => {
  beforeEach(async () => {
    await fresh('w', days(3));
  });

  it('appends at the end: {ok, id, added:1, totalAfter} and the row is stored', async () => {
    const r = await t.call('append_row', { id: 'w', path: '', value: { date: '2026-03-04', kg: 81 } });
    expect(r.json).toEqual({ ok: true, id: 'w', added: 1, totalAfter: 4 });
    expect(r.cardId).toBe('w');
    const { data } = await t.data('w');
    expect(data).toHaveLength(4);
    expect(data[3]).toEqual({ date: '2026-03-04', kg: 81 });
    expect(t.touches).toContainEqual({ id: 'w', flow: 'edit' });
    // recorded with the tool context's actor
    const log = t.s.inst.db
      .prepare("SELECT actor FROM changes WHERE card_id = 'w' ORDER BY id DESC LIMIT 1")
      .pluck()
      .get();
    expect(log).toBe('chat:test');
  });

  it('appends into a nested array of an object card', async () => {
    await fresh('sched', { items: [{ name: 'Zinc', doses: [] }] });
    const r = await t.call('append_row', {
      id: 'sched',
      path: 'items[name="Zinc"].doses',
      value: { at: '08:00' },
    });
    expect(r.json).toMatchObject({ ok: true, id: 'sched', added: 1, totalAfter: 1 });
    expect((await t.data('sched')).data).toEqual({ items: [{ name: 'Zinc', doses: [{ at: '08:00' }] }] });
  });

  it('WRONG_TYPE when the target is not an array; NOT_WRITEABLE on a read-only card', async () => {
    await fresh('sched', { items: [{ name: 'Zinc' }] });
    const r = await t.call('append_row', { id: 'sched', path: 'items[name="Zinc"]', value: { x: 1 } });
    expect(r.ok).toBe(false);
    expect(r.json).toMatchObject({ code: 'WRONG_TYPE', path: 'items[name="Zinc"]', id: 'sched' });

    await fresh('ro', [], { writeable: { fromWebapp: false } });
    const ro = await t.call('append_row', { id: 'ro', path: '', value: { x: 1 } });
    expect(ro.json.code).toBe('NOT_WRITEABLE');
    expect((await t.data('ro')).data).toEqual([]);
  });
});

describe('update_row', () => {
  beforeEach(async () => {
    await fresh('w', days(3));
  });

  it('merges changes (null deletes) into the one row and returns after', async () => {
    const r = await t.call('update_row', {
      id: 'w',
      path: '[date="2026-03-02"]',
      changes: { kg: 81.5, note: 'late' },
    });
    expect(r.json).toEqual({ ok: true, id: 'w', after: { date: '2026-03-02', kg: 81.5, note: 'late' } });
    const r2 = await t.call('update_row', { id: 'w', path: '[date="2026-03-02"]', changes: { note: null } });
    expect(r2.json.after).toEqual({ date: '2026-03-02', kg: 81.5 });
    expect((await t.data('w')).data[1]).toEqual({ date: '2026-03-02', kg: 81.5 });
  });

  it('NO_MATCH and AMBIGUOUS come back as {error, code, path, id}', async () => {
    const nm = await t.call('update_row', { id: 'w', path: '[date="2020-01-01"]', changes: { kg: 1 } });
    expect(nm.json).toMatchObject({ code: 'NO_MATCH', path: '[date="2020-01-01"]', id: 'w' });
    expect(typeof nm.json.error).toBe('string');

    await fresh('dup', [
      { date: '2026-03-01', kg: 1 },
      { date: '2026-03-01', kg: 2 },
    ]);
    const amb = await t.call('update_row', { id: 'dup', path: '[date="2026-03-01"]', changes: { kg: 3 } });
    expect(amb.json).toMatchObject({ code: 'AMBIGUOUS', path: '[date="2026-03-01"]', id: 'dup' });
    expect(typeof amb.json.error).toBe('string');
    expect((await t.data('dup')).data.map((r: { kg: number }) => r.kg)).toEqual([1, 2]);
  });

  it('changes that are not an object fail the schema, naming the field', async () => {
    const r = await t.call('update_row', { id: 'w', path: '[date="2026-03-01"]', changes: [1] });
    expect(r.ok).toBe(false);
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain('changes');
  });
});

describe('remove_row', () => {
  beforeEach(async () => {
    await fresh('w', days(3));
  });

  it('removes the selected row: {ok, id, removed, totalAfter}', async () => {
    const r = await t.call('remove_row', { id: 'w', path: '[date="2026-03-01"]' });
    expect(r.json).toMatchObject({ ok: true, id: 'w', removed: 1, totalAfter: 2 });
    expect((await t.data('w')).data.map((x: { date: string }) => x.date)).toEqual([
      '2026-03-02',
      '2026-03-03',
    ]);
  });

  it('a path without a filter is an error with code, path and id; nothing removed', async () => {
    const r = await t.call('remove_row', { id: 'w', path: '' });
    expect(r.ok).toBe(false);
    expect(r.json).toMatchObject({ path: '', id: 'w' });
    expect(typeof r.json.code).toBe('string');
    expect(typeof r.json.error).toBe('string');
    const nm = await t.call('remove_row', { id: 'w', path: '[date="2030-01-01"]' });
    expect(nm.json).toMatchObject({ code: 'NO_MATCH', path: '[date="2030-01-01"]', id: 'w' });
    expect((await t.data('w')).data).toHaveLength(3);
  });
});

describe('reorder_rows', () => {
  beforeEach(async () => {
    await fresh('w', days(3));
  });

  it('puts the rows in the given order', async () => {
    const r = await t.call('reorder_rows', {
      id: 'w',
      key: 'date',
      order: ['2026-03-03', '2026-03-01', '2026-03-02'],
    });
    expect(r.json).toMatchObject({ ok: true, id: 'w' });
    expect(typeof r.json.reordered).toBe('number');
    expect((await t.data('w')).data.map((x: { date: string }) => x.date)).toEqual([
      '2026-03-03',
      '2026-03-01',
      '2026-03-02',
    ]);
  });

  it('ORDER_MISMATCH on a missing, extra or duplicated key; nothing moves', async () => {
    const orders = [
      ['2026-03-03', '2026-03-01'],
      ['2026-03-03', '2026-03-01', '2026-03-02', '2026-03-09'],
      ['2026-03-03', '2026-03-03', '2026-03-01', '2026-03-02'],
    ];
    for (const order of orders) {
      const r = await t.call('reorder_rows', { id: 'w', path: '', key: 'date', order });
      expect(r.ok).toBe(false);
      expect(r.json).toMatchObject({ code: 'ORDER_MISMATCH', path: '', id: 'w' });
      expect(typeof r.json.error).toBe('string');
    }
    expect((await t.data('w')).data.map((x: { date: string }) => x.date)).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
    ]);
  });

  it('reorders a nested array', async () => {
    await fresh('list', { items: [{ n: 'a' }, { n: 'b' }, { n: 'c' }] });
    const r = await t.call('reorder_rows', { id: 'list', path: 'items', key: 'n', order: ['c', 'b', 'a'] });
    expect(r.json.ok).toBe(true);
    expect((await t.data('list')).data).toEqual({ items: [{ n: 'c' }, { n: 'b' }, { n: 'a' }] });
  });
});
