/**
 * get_recent_activity through dispatchToolCall.
 *
 * The clock is pinned to 2026-06-15T12:00:00Z and the process zone to Pacific/Kiritimati
 * (UTC+14), where it is already 2026-06-16: "today" must come from the server's zone, not UTC.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanDelta, lastNDelta } from '../../src/insights/recent-activity.js';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const ZONE = 'Pacific/Kiritimati';
const TODAY = '2026-06-16'; // in ZONE at NOW
const previousTz = process.env.TZ;

/** TODAY shifted by `n` days. */
const day = (n: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

let t: ToolEnv;
beforeAll(async () => {
  process.env.TZ = ZONE;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  expect(new Intl.DateTimeFormat('en-CA').format(new Date())).toBe(TODAY);
  t = await toolEnv({
    before: (_home, dataDir) => {
      // a manifest dropped in by hand with no data: nothing in the datastore, so mtime is the source
      fs.mkdirSync(dataDir, { recursive: true });
      const f = path.join(dataDir, 'by-hand.json');
      fs.writeFileSync(
        f,
        JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'by-hand', label: 'By hand' } }),
      );
      fs.utimesSync(f, NOW, NOW);
    },
  });
  const cards = [
    // rows not in date order; the last two (in row order) differ by 0.2 on their one numeric field
    manifest(
      'weight',
      [
        { date: day(-2), kg: 79 },
        { date: day(-9), kg: 80 },
        { date: day(-5), kg: 80.2 },
      ],
      { label: 'Weight', view: { enabled: true, component: 'generic-card' } },
    ),
    manifest('bp', [
      { date: day(-1), systolic: 120, diastolic: 80 },
      { date: day(-1), systolic: 125, diastolic: 82 },
    ]),
    manifest('one-row', [{ date: day(-4), kg: 70 }]),
    manifest('mixed', [
      { date: day(-3), kg: 70, note: 'a' },
      { date: day(-2), kg: 'n/a', reps: 5 },
    ]),
    manifest(
      'custom-date',
      [
        { when: `${day(-6)}T08:15:00`, v: 1 },
        { when: `${day(-7)}T21:00:00`, v: 2 },
      ],
      {
        view: { enabled: true, component: 'list-card', dateField: 'when' },
      },
    ),
    // noon UTC yesterday is 02:00 today in Kiritimati: an instant is filed under the zone's day
    manifest('instant', [{ date: `${day(-1)}T12:00:00Z`, kg: 70 }]),
    manifest('undated', [{ v: 1 }, { v: 2 }]),
    manifest('object-card', { items: [{ name: 'Zinc' }] }),
    manifest('empty', []),
    manifest('null-card', null),
  ];
  for (const m of cards) expect((await t.call('create_manifest', { manifest: m })).json.ok).toBe(true);
});
afterAll(async () => {
  await t.close();
  vi.useRealTimers();
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

async function activity() {
  const r = await t.call('get_recent_activity', {});
  expect(r.ok).toBe(true);
  return {
    raw: r.json,
    byId: Object.fromEntries(r.json.cards.map((c: { id: string }) => [c.id, c])) as Record<string, any>,
  };
}

describe('get_recent_activity', () => {
  it('lists every card with the documented fields', async () => {
    const { raw, byId } = await activity();
    expect(raw.today).toBe(TODAY);
    expect(Object.keys(byId).sort()).toEqual(
      [
        'bp',
        'by-hand',
        'custom-date',
        'empty',
        'instant',
        'mixed',
        'null-card',
        'object-card',
        'one-row',
        'undated',
        'weight',
      ].sort(),
    );
    for (const c of raw.cards) {
      for (const k of [
        'id',
        'label',
        'renderer',
        'rowCount',
        'lastEntryDate',
        'ageDays',
        'lastNDelta',
        'staleSource',
      ]) {
        expect(c).toHaveProperty(k);
      }
    }
  });

  it('a date written in UTC is the zone’s day: lastEntryDate today, not yesterday', async () => {
    const { byId } = await activity();
    expect(byId.instant).toMatchObject({ lastEntryDate: TODAY, ageDays: 0, staleSource: 'rows' });
  });

  it('rowCount, lastEntryDate (newest date, whatever the row order), ageDays from the zone, renderer', async () => {
    const { byId } = await activity();
    expect(byId.weight).toMatchObject({
      id: 'weight',
      label: 'Weight',
      renderer: 'generic-card',
      rowCount: 3,
      lastEntryDate: day(-2),
      ageDays: 2,
      staleSource: 'rows',
    });
    expect(byId['one-row']).toMatchObject({
      rowCount: 1,
      lastEntryDate: day(-4),
      ageDays: 4,
      lastNDelta: null,
      renderer: null,
    });
  });

  it('lastNDelta: last minus previous with float artefacts cleaned (80 -> 80.2 is 0.2 exactly)', async () => {
    const { byId } = await activity();
    expect(byId.weight.lastNDelta).toBe(0.2);
    // two shared numeric fields: no delta; one row: no delta; one shared numeric field out of mixed rows
    expect(byId.bp.lastNDelta).toBeNull();
    expect(byId['one-row'].lastNDelta).toBeNull();
    expect(byId.mixed.lastNDelta).toBeNull();
  });

  it("cleanDelta rounds to the inputs' decimals, also for large values", () => {
    expect(cleanDelta(1234567.8, 1234567.7)).toBe(0.1);
    expect(cleanDelta(98765.43, 98765.42)).toBe(0.01);
    expect(cleanDelta(0.3, 0.1)).toBe(0.2);
    expect(cleanDelta(72, 70.5)).toBe(1.5);
    expect(cleanDelta(5, 5)).toBe(0);
  });

  it('meta.view.dateField is used and datetimes count by their date', async () => {
    const { byId } = await activity();
    expect(byId['custom-date']).toMatchObject({
      lastEntryDate: day(-6),
      ageDays: 6,
      staleSource: 'rows',
      rowCount: 2,
    });
  });

  it('rowCount of objects, empty arrays and null; staleSource falls back to updatedAt', async () => {
    const { byId } = await activity();
    expect(byId['object-card']).toMatchObject({ rowCount: 1, lastEntryDate: null, staleSource: 'updatedAt' });
    expect(byId.empty).toMatchObject({
      rowCount: 0,
      lastEntryDate: null,
      lastNDelta: null,
      staleSource: 'updatedAt',
    });
    expect(byId['null-card']).toMatchObject({ rowCount: 0, lastEntryDate: null, staleSource: 'updatedAt' });
    expect(byId.undated).toMatchObject({ rowCount: 2, lastEntryDate: null, staleSource: 'updatedAt' });
  });

  it('a card with no datastore write falls back to the manifest mtime', async () => {
    const { byId } = await activity();
    expect(byId['by-hand']).toMatchObject({ rowCount: 0, lastEntryDate: null, staleSource: 'mtime' });
  });

  it('a card written just now is 0 days old in the server zone (updatedAt and mtime sources)', async () => {
    const { byId } = await activity();
    // created at NOW, which is already TODAY in the server's zone
    expect({
      'object-card': byId['object-card'].ageDays,
      undated: byId.undated.ageDays,
      'by-hand': byId['by-hand'].ageDays,
    }).toEqual({ 'object-card': 0, undated: 0, 'by-hand': 0 });
  });

  it('a row whose date is not an ISO date does not hide the dated rows', async () => {
    await t.call('create_manifest', {
      manifest: manifest('odd-date', [
        { date: day(-3), kg: 1 },
        { date: 'unknown', kg: 2 },
        { date: day(-8), kg: 3 },
      ]),
    });
    const { byId } = await activity();
    expect(byId['odd-date']).toMatchObject({
      rowCount: 3,
      lastEntryDate: day(-3),
      ageDays: 3,
      staleSource: 'rows',
    });
    await t.call('delete_manifest', { id: 'odd-date' });
  });

  it('a new row moves lastEntryDate, ageDays and lastNDelta', async () => {
    await t.call('append_row', { id: 'one-row', value: { date: TODAY, kg: 70.3 } });
    const { byId } = await activity();
    expect(byId['one-row']).toMatchObject({ rowCount: 2, lastEntryDate: TODAY, ageDays: 0, lastNDelta: 0.3 });
  });
});

describe('cleanDelta / lastNDelta', () => {
  it('cleans float artefacts', () => {
    expect(cleanDelta(80.2, 80)).toBe(0.2);
    expect(cleanDelta(0.3, 0.1)).toBe(0.2);
    expect(cleanDelta(80, 80.2)).toBe(-0.2);
    expect(cleanDelta(1e-7, 0)).toBe(1e-7);
  });

  it('needs exactly one shared numeric field', () => {
    expect(lastNDelta([{ kg: 80.2 }, { kg: 80 }])).toBe(0.2);
    expect(
      lastNDelta([
        { kg: 80.2, note: 'x' },
        { kg: 80, note: 'y' },
      ]),
    ).toBe(0.2);
    expect(
      lastNDelta([
        { a: 1, b: 2 },
        { a: 0, b: 1 },
      ]),
    ).toBeNull();
    expect(lastNDelta([{ a: 1 }, { b: 1 }])).toBeNull();
    expect(lastNDelta([{ a: 1 }])).toBeNull();
    expect(lastNDelta([5, 4])).toBeNull();
  });
});
