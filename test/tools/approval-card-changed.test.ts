/**
 * An approval describes the card as it was when the person was asked ("Delete the card “w” and
 * its 3 rows."). When the card changes while the question waits (a row logged in another tab, a
 * phone push, a hand edit of its file), the approved call must not run on a card the person never
 * saw: it is refused with CONFLICT and nothing changes; asked again, it can be approved anew.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
const ROWS = [
  { date: '2026-03-01', kg: 80 },
  { date: '2026-03-02', kg: 81 },
  { date: '2026-03-03', kg: 82 },
];
const reminder = {
  id: 'evening',
  label: 'Evening',
  title: 'Weigh in',
  body: 'Step on the scales.',
  trigger: { type: 'daily', time: '20:00' },
};
const INPUTS = [
  { key: 'kg', type: 'number' },
  { key: 'note', type: 'text' },
];

beforeAll(async () => {
  t = await toolEnv();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.s.api('/api/manifests/w', { method: 'DELETE' });
  const m = manifest('w', ROWS, {
    writeable: { fromWebapp: true, inputs: INPUTS },
    notifications: { items: [reminder] },
  });
  const r = await t.s.api('/api/manifests', { json: m });
  expect(r.status, r.text).toBe(201);
  t.asked.length = 0;
  t.ctx.removedRows = 0;
  t.decision = 'approved';
});

/** Makes the approval answer only after `meanwhile` (another client's change) has run. */
function changeWhileAsking(meanwhile: () => Promise<void>): void {
  const approve = t.ctx.approve;
  t.ctx.approve = async (req) => {
    t.ctx.approve = approve;
    await meanwhile();
    return (await approve?.(req)) ?? 'approved';
  };
}

const addRow = async () => {
  const r = await t.s.api('/api/manifests/w/rows', { json: { value: { date: '2026-03-04', kg: 83 } } });
  expect(r.status, r.text).toBeLessThan(300);
};

describe('a card changed while its approval waited', () => {
  it.each([
    ['delete_manifest', { id: 'w' }],
    ['write_manifest_data', { id: 'w', data: [ROWS[0]] }],
    ['remove_notification', { card_id: 'w', notification_id: 'evening' }],
    ['patch_manifest', { id: 'w', patch: { meta: { writeable: { inputs: [INPUTS[0]] } } } }],
  ])('%s is refused, and a row logged meanwhile is kept', async (name, args) => {
    changeWhileAsking(addRow);
    const r = await t.call(name, args);
    expect(r.ok, r.content).toBe(false);
    expect(r.json.code, r.content).toBe('CONFLICT');
    expect(r.json.error).toMatch(/changed while/);
    expect(t.asked).toHaveLength(1);
    expect((await t.data('w')).data).toEqual([...ROWS, { date: '2026-03-04', kg: 83 }]);
    expect(t.file('w').meta.notifications.items).toHaveLength(1);
    expect(t.file('w').meta.writeable.inputs).toEqual(INPUTS);
    // asked again about the card as it is now, it runs
    const again = await t.call(name, args);
    expect(again.ok, again.content).toBe(true);
    expect(t.asked).toHaveLength(2);
  });

  it('remove_row by position does not remove the row that moved into that place', async () => {
    expect((await t.call('remove_row', { id: 'w', path: '[index=2]' })).ok).toBe(true);
    // the second removal is asked; meanwhile another client puts a row in front
    changeWhileAsking(async () => {
      const r = await t.s.api('/api/manifests/w/data', {
        method: 'POST',
        json: { data: [{ date: '2026-02-28', kg: 79 }, ROWS[0], ROWS[1]] },
      });
      expect(r.status, r.text).toBeLessThan(300);
    });
    const r = await t.call('remove_row', { id: 'w', path: '[index=1]' });
    expect(r.json.code, r.content).toBe('CONFLICT');
    expect((await t.data('w')).data).toEqual([{ date: '2026-02-28', kg: 79 }, ROWS[0], ROWS[1]]);
  });

  it('a change of another card does not matter', async () => {
    const other = await t.s.api('/api/manifests', { json: manifest('other', []) });
    expect(other.status, other.text).toBe(201);
    changeWhileAsking(async () => {
      const r = await t.s.api('/api/manifests/other/rows', { json: { value: { date: '2026-03-04', n: 1 } } });
      expect(r.status, r.text).toBeLessThan(300);
    });
    const r = await t.call('delete_manifest', { id: 'w' });
    expect(r.ok, r.content).toBe(true);
    expect(t.file('w')).toBeUndefined();
    await t.s.api('/api/manifests/other', { method: 'DELETE' });
  });
});
