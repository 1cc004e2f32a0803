/**
 * get_recent_activity's lastEntryDate is the person's day of the latest row, not the day of the
 * value that sorts last as text: plain days and instants written with Z or an offset are mixed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
beforeAll(async () => {
  t = await toolEnv();
  t.ctx.timeZone = 'America/Los_Angeles';
});
afterAll(async () => {
  await t.close();
});

async function lastEntryDate(id: string, data: unknown[], meta: Record<string, unknown> = {}) {
  expect((await t.call('create_manifest', { manifest: manifest(id, data, meta) })).json.ok).toBe(true);
  const r = await t.call('get_recent_activity', {});
  return r.json.cards.find((c: { id: string }) => c.id === id).lastEntryDate;
}

it.each([
  // 03:30Z on the 21st is the 20th in Los Angeles; the plain 21st is later
  [
    'a plain day after an instant that sorts later',
    [{ date: '2026-04-21' }, { date: '2026-04-21T03:30Z' }],
    '2026-04-21',
  ],
  // 23:00 at -08:00 on the 20th is 00:00 on the 21st in Los Angeles; 01:00 at +09:00 on the 21st is the 20th there
  [
    'two instants with offsets',
    [{ date: '2026-04-20T23:00-08:00' }, { date: '2026-04-21T01:00+09:00' }],
    '2026-04-21',
  ],
  ['plain days only', [{ date: '2026-04-19' }, { date: '2026-04-20' }], '2026-04-20'],
])('%s', async (_what, rows, want) => {
  const id = `c${Math.random().toString(36).slice(2, 8)}`;
  expect(await lastEntryDate(id, rows)).toBe(want);
});

it('a card dated by another field is read the same way', async () => {
  const rows = [{ when: '2026-04-21' }, { when: '2026-04-21T03:30Z' }];
  expect(await lastEntryDate('other-field', rows, { view: { dateField: 'when' } })).toBe('2026-04-21');
});
