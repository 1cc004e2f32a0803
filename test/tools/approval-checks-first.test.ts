/**
 * A chat tool that asks the person to approve it (delete_manifest, patch_manifest dropping an
 * input, write_manifest_data over rows, remove_row from the second removal on,
 * remove_notification) makes every check of the call first: a call that cannot succeed is refused
 * at once with its error and nothing is asked. A call that can succeed is still asked about.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/chat/tools/registry.js';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
const ROWS = [
  { date: '2026-03-01', kg: 80, note: 'a' },
  { date: '2026-03-02', kg: 81, note: 'b' },
  { date: '2026-03-03', kg: 82, note: 'c' },
];
const INPUTS = [
  { key: 'kg', type: 'number' },
  { key: 'note', type: 'text' },
];
const reminder = {
  id: 'evening',
  label: 'Evening',
  title: 'Weigh in',
  body: 'Step on the scales.',
  trigger: { type: 'daily', time: '20:00' },
};

async function fresh() {
  for (const id of ['w', 'ro']) await t.s.api(`/api/manifests/${id}`, { method: 'DELETE' });
  for (const m of [
    manifest('w', ROWS, {
      writeable: { fromWebapp: true, inputs: INPUTS },
      notifications: { items: [reminder] },
    }),
    manifest('ro', ROWS, { writeable: { fromWebapp: false } }),
  ]) {
    const r = await t.s.api('/api/manifests', { json: m });
    expect(r.status, r.text).toBe(201);
  }
  t.asked.length = 0;
  t.ctx.removedRows = 0;
  t.decision = 'approved';
}

beforeAll(async () => {
  t = await toolEnv();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(fresh);

/** The call failed with `code` naming `path` (when given), nothing was asked, the rows are as they were. */
async function refusedAtOnce(
  r: Awaited<ReturnType<ToolEnv['call']>>,
  code: string,
  path?: string,
): Promise<void> {
  expect(r.ok, r.content).toBe(false);
  expect(r.json.code, r.content).toBe(code);
  if (path) expect(JSON.stringify(r.json.details ?? r.json.path), r.content).toContain(path);
  expect(t.asked).toEqual([]);
  expect((await t.data('w')).data).toEqual(ROWS);
}

describe('a call that cannot succeed is refused before anything is asked', () => {
  it('patch_manifest dropping an input with a field that breaks its rule', async () => {
    const r = await t.call('patch_manifest', {
      id: 'w',
      patch: { meta: { writeable: { inputs: [INPUTS[0]] }, cadence: { expectDays: -3 } } },
    });
    await refusedAtOnce(r, 'INVALID', 'meta.cadence');
    expect(t.file('w').meta.writeable.inputs).toEqual(INPUTS);
  });

  it('patch_manifest turning entries off on a card that does not exist', async () => {
    const r = await t.call('patch_manifest', {
      id: 'nope',
      patch: { meta: { writeable: { fromWebapp: false } } },
    });
    await refusedAtOnce(r, 'CARD_NOT_FOUND');
  });

  it('write_manifest_data over rows with data that is not a list of rows', async () => {
    await refusedAtOnce(
      await t.call('write_manifest_data', { id: 'w', data: [1, 2] }),
      'BAD_REQUEST',
      'data',
    );
  });

  it('write_manifest_data over the rows of a read-only card', async () => {
    const r = await t.call('write_manifest_data', { id: 'ro', data: [] });
    await refusedAtOnce(r, 'NOT_WRITEABLE');
  });

  it('remove_row, second removal, with a path that picks no row or several', async () => {
    expect((await t.call('remove_row', { id: 'w', path: '[date="2026-03-03"]' })).ok).toBe(true);
    const rest = ROWS.slice(0, 2);
    for (const [path, code] of [
      ['[date="2030-01-01"]', 'NO_MATCH'],
      ['[index=7]', 'NO_MATCH'],
      ['kg', 'WRONG_TYPE'],
      ['[date=', 'BAD_PATH'],
    ]) {
      const r = await t.call('remove_row', { id: 'w', path });
      expect(r.ok, path).toBe(false);
      expect(r.json.code, path).toBe(code);
      expect(t.asked, path).toEqual([]);
    }
    expect((await t.data('w')).data).toEqual(rest);
    const ro = await t.call('remove_row', { id: 'ro', path: '[index=0]' });
    expect(ro.json.code).toBe('NOT_WRITEABLE');
    expect(t.asked).toEqual([]);
  });

  it('remove_notification of a reminder the card does not have', async () => {
    const r = await t.call('remove_notification', { card_id: 'w', notification_id: 'morning' });
    await refusedAtOnce(r, 'NOTIFICATION_NOT_FOUND', 'notification_id');
    expect(t.file('w').meta.notifications.items).toHaveLength(1);
  });

  it('delete_manifest of a card that does not exist', async () => {
    await refusedAtOnce(await t.call('delete_manifest', { id: 'nope' }), 'CARD_NOT_FOUND');
  });
});

describe('a call that can succeed is asked about, then runs', () => {
  it.each([
    ['patch_manifest', { id: 'w', patch: { meta: { writeable: { inputs: [INPUTS[0]] } } } }],
    ['write_manifest_data', { id: 'w', data: [ROWS[0]] }],
    ['remove_notification', { card_id: 'w', notification_id: 'evening' }],
    ['delete_manifest', { id: 'w' }],
  ])('%s', async (name, args) => {
    const r = await t.call(name, args);
    expect(r.ok, r.content).toBe(true);
    expect(t.asked.map((a) => a.tool)).toEqual([name]);
  });

  it('remove_row, second removal', async () => {
    await t.call('remove_row', { id: 'w', path: '[index=0]' });
    const r = await t.call('remove_row', { id: 'w', path: '[date="2026-03-02"]' });
    expect(r.ok, r.content).toBe(true);
    expect(t.asked.map((a) => a.tool)).toEqual(['remove_row']);
    expect((await t.data('w')).data).toEqual([ROWS[2]]);
  });
});

it('every tool with an approval step checks its call before asking', () => {
  const unchecked = ALL_TOOLS.filter((tool) => tool.approval && !tool.check).map((tool) => tool.name);
  expect(unchecked).toEqual([]);
});
