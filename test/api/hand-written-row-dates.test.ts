/**
 * Rows whose date a person wrote by hand in a card file another way than YYYY-MM-DD
 * (`2026/04/06`, `2026-4-6`, `2026.4.6`, `6.4.2026`) are found by the day they name: an entry saved
 * for that day replaces the row instead of adding a second one, a row path `[date="2026-04-06"]`
 * picks it, the card's latest day and the doctor's summary count it on its day.
 * Real server, the card files dropped into data/ before the start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentActivity } from '../../src/insights/recent-activity.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'hand-dates-token';
const SPELLINGS = ['2026/04/06', '2026-4-6', '2026.4.6', '6.4.2026', '06.04.2026 08:30'];
const idOf = (i: number) => `w${i}`;
let s: TestServer;

const agent = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const handRows = (date: string) => [
  { date: '2026-04-01', kg: 80 },
  { date, kg: 81 },
];
/** Puts the card's rows back as the file had them (an earlier test rewrote the row's date). */
async function reset(i: number) {
  const r = await agent(`/api/manifests/${idOf(i)}/data`, { json: { data: handRows(SPELLINGS[i]) } });
  expect(r.status, r.text).toBe(200);
}
const rows = async (id: string) => (await agent(`/api/manifests/${id}/data`)).body.data as { kg: number }[];

beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      SPELLINGS.forEach((date, i) => {
        const card = {
          $schema: 'klebb.datafile.v1',
          meta: {
            id: idOf(i),
            label: `Weight ${i}`,
            view: { enabled: true, component: 'generic-card', display: { template: '{kg} kg' } },
            writeable: {
              fromWebapp: true,
              pastAllowed: true,
              inputs: [{ key: 'kg', type: 'number', label: 'Weight' }],
            },
          },
          data: handRows(date),
        };
        fs.writeFileSync(path.join(dataDir, `${idOf(i)}.json`), JSON.stringify(card));
      });
    },
  });
});
afterAll(async () => {
  await s?.close();
});

describe('a row dated by hand another way', () => {
  it('is replaced by an entry for its day, not doubled', async () => {
    for (let i = 0; i < SPELLINGS.length; i++) {
      const r = await agent(`/api/manifests/${idOf(i)}/entries`, {
        json: { entry: { date: '2026-04-06', kg: 90 } },
      });
      expect(r.status, `${SPELLINGS[i]}: ${r.text}`).toBe(201);
      expect(r.body.replaced, SPELLINGS[i]).toBe(true);
      expect(
        (await rows(idOf(i))).map((row) => row.kg),
        SPELLINGS[i],
      ).toEqual([80, 90]);
    }
  });

  it('is the row a date filter picks for an update', async () => {
    for (let i = 0; i < SPELLINGS.length; i++) {
      await reset(i);
      // the time a row carries is part of its date: the day alone names the rows without one
      const date = SPELLINGS[i].includes(':') ? '2026-04-06 08:30' : '2026-04-06';
      const r = await agent(`/api/manifests/${idOf(i)}/rows`, {
        method: 'PATCH',
        json: { path: `[date="${date}"]`, changes: { kg: 91 } },
      });
      expect(r.status, `${SPELLINGS[i]}: ${r.text}`).toBe(200);
      expect(
        (await rows(idOf(i))).map((row) => row.kg),
        SPELLINGS[i],
      ).toEqual([80, 91]);
    }
  });

  it("is the card's latest day", async () => {
    for (let i = 0; i < SPELLINGS.length; i++) await reset(i);
    const cards = recentActivity(s.inst.cards, 'UTC').cards.filter((c) => /^w\d$/.test(c.id));
    expect(cards.map((c) => c.lastEntryDate)).toEqual(SPELLINGS.map(() => '2026-04-06'));
  });

  it("counts on its day in the doctor's summary", async () => {
    for (let i = 0; i < SPELLINGS.length; i++) await reset(i);
    const ids = SPELLINGS.map((_, i) => idOf(i)).join(',');
    const r = await s.api(`/api/summary?from=2026-04-02&to=2026-04-06&cards=${ids}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.cards.map((c: { total: number }) => c.total)).toEqual(SPELLINGS.map(() => 1));
    const outside = await s.api(`/api/summary?from=2026-04-07&to=2026-12-31&cards=${ids}`);
    expect(outside.body.cards.map((c: { total: number }) => c.total)).toEqual(SPELLINGS.map(() => 0));
  });

  it("is counted once, in day order, in a summary reaching into the next year's text range", async () => {
    // 2026-04-01..2026-12-31 reads the date index up to 2027-01-02: year-first spellings of 2026
    // (2026/04/06, 2026-4-6) sort inside that text range as well as among the hand-written ones
    for (let i = 0; i < SPELLINGS.length; i++) await reset(i);
    const ids = SPELLINGS.map((_, i) => idOf(i)).join(',');
    const r = await s.api(`/api/summary?from=2026-04-01&to=2026-12-31&cards=${ids}`);
    expect(r.status, r.text).toBe(200);
    type Card = {
      total: number;
      rows: { kg: number }[];
      stats: { field: string; count: number; avg: number }[];
    };
    const cards = r.body.cards as Card[];
    expect(cards.map((c) => c.total)).toEqual(SPELLINGS.map(() => 2));
    expect(cards.map((c) => c.rows.map((row) => row.kg))).toEqual(SPELLINGS.map(() => [80, 81]));
    expect(cards.map((c) => c.stats.find((st) => st.field === 'kg'))).toEqual(
      SPELLINGS.map(() => ({ field: 'kg', count: 2, avg: 80.5, min: 80, max: 81 })),
    );
  });
});
