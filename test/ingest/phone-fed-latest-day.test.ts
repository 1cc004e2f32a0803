/**
 * Settings › Health Auto Export lists each phone-fed card with the latest day of its rows. That is
 * the latest day a row is filed under in the person's zone, not the value that sorts last as text:
 * rows written by hand as plain days sit beside instants written with Z or an offset.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { haeCard, type IngestServer, startIngestServer } from './helpers.js';

let s: IngestServer;
beforeAll(async () => {
  s = await startIngestServer();
  expect((await s.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
});
afterAll(async () => {
  await s.close();
});

async function latestDate(id: string, rows: Record<string, unknown>[]): Promise<unknown> {
  // writeable from the web app, so the test can store rows of both kinds directly
  await s.createCard(haeCard(id, 'weight_body_mass', { writeable: { fromWebapp: true } }));
  expect((await s.api(`/api/manifests/${id}/data`, { json: { data: rows } })).status).toBe(200);
  const cards = (await s.api('/api/health-auto-export/cards')).body.cards as {
    id: string;
    latestDate: unknown;
  }[];
  return cards.find((c) => c.id === id)?.latestDate;
}

it.each([
  // 03:30Z on the 21st is the evening of the 20th in Los Angeles; the plain 21st is the later day
  [
    'a plain day after an instant that sorts later',
    [
      { date: '2026-04-21', kg: 80 },
      { date: '2026-04-21T03:30Z', kg: 81 },
    ],
    '2026-04-21',
  ],
  // 23:00 at -08:00 on the 20th is midnight of the 21st there; 01:00 at +09:00 on the 21st is the 20th
  [
    'two instants with offsets',
    [
      { date: '2026-04-20T23:00-08:00', kg: 80 },
      { date: '2026-04-21T01:00+09:00', kg: 81 },
    ],
    '2026-04-21',
  ],
  // a single instant is named by its day in the person's zone, never as the stored text
  ['one instant', [{ date: '2026-04-21T03:30Z', kg: 80 }], '2026-04-20'],
  [
    'plain days only',
    [
      { date: '2026-04-19', kg: 80 },
      { date: '2026-04-20', kg: 81 },
    ],
    '2026-04-20',
  ],
])('%s', async (_what, rows, want) => {
  const id = `w${Math.random().toString(36).slice(2, 8)}`;
  expect(await latestDate(id, rows)).toBe(want);
});

it('a card with no rows has no latest day', async () => {
  await s.createCard(haeCard('empty', 'step_count'));
  const cards = (await s.api('/api/health-auto-export/cards')).body.cards as {
    id: string;
    latestDate: unknown;
  }[];
  expect(cards.find((c) => c.id === 'empty')?.latestDate).toBeNull();
});
