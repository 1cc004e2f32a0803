/**
 * RowsAhead (src/ingest/hae/rows-ahead.ts): card rows made while an export's samples are
 * stored must be the rows a read-back of the stored samples makes, date by date, whatever was
 * stored before, re-sent, or read out of order; dates it cannot vouch for are read back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { prepareRows, rowsForDates, rowsWithAhead } from '../../src/ingest/hae/cards.js';
import { type CatalogueEntry, resolveMetric } from '../../src/ingest/hae/format/catalogue.js';
import type { Sample } from '../../src/ingest/hae/format/sample.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { RowsAhead } from '../../src/ingest/hae/rows-ahead.js';
import { HaeSampleStore } from '../../src/ingest/hae/sample-store.js';
import { MIGRATION_STEPS } from '../../src/migration-steps.js';
import { type Db, openDatabase } from '../../src/store/database.js';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function store(): HaeSampleStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-ahead-'));
  dirs.push(dir);
  const db = openDatabase(path.join(dir, 'klebb.db'), { steps: MIGRATION_STEPS });
  dbs.push(db);
  return new HaeSampleStore(db);
}

const entry = (key: string) => resolveMetric(key) as CatalogueEntry;

/** Points every 3 hours of `metric` for days `from`..`to` (January 2024) from one source. */
function points(
  metric: string,
  units: string,
  source: string,
  from: number,
  to: number,
  scale = 1,
): Sample[] {
  const data: Record<string, unknown>[] = [];
  for (let d = from; d <= to; d++) {
    for (let h = 0; h < 24; h += 3) {
      const date = `2024-01-${String(d).padStart(2, '0')} ${String(h).padStart(2, '0')}:00:00 +0100`;
      // 30 to 126: each a heart rate a body gives, so none is left out as implausible
      data.push({ date, qty: (30 + ((d * 31 + h * 7) % 97)) * scale, source });
    }
  }
  return extractSamples({ metrics: [{ name: metric, units, data }], workouts: [], warnings: [] }).samples.map(
    (s) => ({ ...s, span: 'sample' as const }),
  );
}

/** Stores `batches` in order as an import does, telling `ahead` which were all new. */
function storeAll(st: HaeSampleStore, ahead: RowsAhead, batches: Sample[][]): Set<string> {
  const dates = new Set<string>();
  const push = st.beginPush('apple-health', new Date().toISOString(), 0);
  for (const batch of batches) {
    const r = st.insert(batch, push);
    for (const s of batch) dates.add(s.date);
    ahead.stored(batch, r.inserted === batch.length);
  }
  ahead.finish();
  return dates;
}

it('makes the rows a read-back makes: sources in separate passes, a re-sent batch, earlier samples', async () => {
  const st = store();
  const steps = entry('step_count');
  const heart = entry('heart_rate');
  // stored before the import: days 3 and 4 of the watch
  st.insert(points('step_count', 'count', 'Watch', 3, 4), st.beginPush('hae', new Date().toISOString(), 0));
  const ahead = new RowsAhead([steps, heart, entry('sleep_analysis')]);
  const phone = points('step_count', 'count', 'iPhone', 1, 12);
  const watch = points('step_count', 'count', 'Watch', 1, 12, 2);
  const hr = points('heart_rate', 'count/min', 'Watch', 1, 12);
  const dates = storeAll(st, ahead, [
    phone.slice(0, 40),
    phone.slice(40),
    // a second source of the same dates, after the first one's dates were done
    watch.slice(0, 50),
    watch.slice(50),
    hr.slice(0, 30),
    // re-sent: nothing new
    hr.slice(0, 30),
    hr.slice(30),
  ]);
  for (const e of [steps, heart]) {
    const made = await prepareRows(st, e, dates, ahead);
    const readBack = await prepareRows(st, e, dates);
    expect(made.rows).toEqual(readBack.rows);
    expect(made.counts).toEqual(readBack.counts);
    expect(made.rows.length).toBe(12);
  }
  // heart rate's dates were read in order, once: made here (a re-sent batch spoils only its dates)
  expect(ahead.get('heart_rate', '2024-01-11')?.samples).toBe(8);
  expect(ahead.get('heart_rate', '2024-01-01')).toBeUndefined();
  // steps: the watch's pass came after the phone's dates were done; a watch shares no device with
  // a phone, so each date's row joins both passes' rows (days 3 and 4 held watch samples before
  // the import: their counts differ, and they were read back above)
  expect(ahead.get('step_count', '2024-01-02')?.samples).toBe(16);
});

/** A seeded generator (mulberry32), so a failure names a reproducible case. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One source's pass over days 1..6: points at random instants, some at midnight (a day's total
 * or its first minutes), some sent twice with other values (versions), some twice alike.
 */
function pass(metric: string, units: string, source: string | undefined, random: () => number): Sample[] {
  const data: Record<string, unknown>[] = [];
  for (let d = 1; d <= 6; d++) {
    const day = `2024-01-0${d}`;
    const n = Math.floor(random() * 6);
    for (let i = 0; i < n; i++) {
      const h = random() < 0.25 ? 0 : Math.floor(random() * 24);
      const qty = Math.round(random() * 5000) / 10;
      const point: Record<string, unknown> = {
        date: `${day} ${String(h).padStart(2, '0')}:00:00 +0100`,
        qty,
      };
      if (source !== undefined) point.source = source;
      data.push(point);
      if (random() < 0.15) data.push({ ...point, qty: qty + 7 });
      if (random() < 0.1) data.push({ ...point });
    }
  }
  return extractSamples({ metrics: [{ name: metric, units, data }], workouts: [], warnings: [] }).samples.map(
    (s) => ({ ...s, span: 'sample' as const }),
  );
}

it('rows of dates that sources pass over one after the other are the rows a read-back makes', async () => {
  // kinds that join passes (steps, a maximum) and kinds that must read back (a logged intake,
  // an average); sources apart, sharing a device, combined, unknown
  const kinds: [string, string][] = [
    ['step_count', 'count'],
    ['uv_exposure', 'count'],
    ['dietary_water', 'mL'],
    ['heart_rate', 'count/min'],
  ];
  const sourceLists = [
    ['iPhone', 'Watch'],
    ['iPhone', 'Watch', 'Oura'],
    ['iPhone', 'iPhone|Watch'],
    ['Watch|iPhone', 'Oura', 'Watch'],
    ['iPhone', undefined, 'Watch'],
    [undefined, 'Watch'],
  ];
  let joined = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const random = seeded(seed);
    for (const [metric, units] of kinds) {
      const st = store();
      const e = entry(metric);
      const ahead = new RowsAhead([e]);
      const sources = sourceLists[seed % sourceLists.length];
      const batches = sources.map((src) => pass(metric, units, src, random)).filter((b) => b.length > 0);
      const dates = storeAll(st, ahead, batches);
      const made = await prepareRows(st, e, dates, ahead);
      const readBack = await prepareRows(st, e, dates);
      expect(made.rows, `seed ${seed}, ${metric}, ${sources.join(' then ')}`).toEqual(readBack.rows);
      for (const d of dates) if ((ahead.get(e.key, d)?.samples ?? 0) > 0 && sources.length > 1) joined++;
    }
  }
  // the passes of sources apart were joined, not all read back
  expect(joined).toBeGreaterThan(50);
});

it('a date whose stored count changed since its row was made is read back', async () => {
  const st = store();
  const heart = entry('heart_rate');
  const ahead = new RowsAhead([heart]);
  const dates = storeAll(st, ahead, [points('heart_rate', 'count/min', 'Watch', 1, 6)]);
  expect(ahead.get('heart_rate', '2024-01-05')?.samples).toBe(8);
  // another push adds a sample to the 5th after the import stored its own
  st.insert(points('heart_rate', 'count/min', 'Phone', 5, 5).slice(0, 1), st.beginPush('hae', '', 0));
  const made = await prepareRows(st, heart, dates, ahead);
  expect(made.rows).toEqual((await prepareRows(st, heart, dates)).rows);
  expect(made.counts.get('2024-01-05')).toBe(9);
});

it("stamps written in UTC are read on the person's clock, as the read-back reads them", () => {
  const zone = 'America/New_York';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-ahead-'));
  dirs.push(dir);
  const db = openDatabase(path.join(dir, 'klebb.db'), { steps: MIGRATION_STEPS });
  dbs.push(db);
  const st = new HaeSampleStore(db, () => zone);
  const steps = entry('step_count');
  // a day's total stamped at the person's midnight (05:00 UTC) beside hourly counts of the same
  // watch: whether it is the day's total (else one more hour to add up) depends on the clock
  const data: Record<string, unknown>[] = [];
  for (let d = 2; d <= 6; d++) {
    const day = String(d).padStart(2, '0');
    data.push({ date: `2024-01-${day}T05:00:00Z`, qty: 9000 + d, source: 'Watch' });
    for (let h = 6; h < 18; h += 2)
      data.push({
        date: `2024-01-${day}T${String(h + 5).padStart(2, '0')}:00:00Z`,
        qty: 400 + h,
        source: 'Watch',
      });
  }
  const samples = extractSamples(
    { metrics: [{ name: 'step_count', units: 'count', data }], workouts: [], warnings: [] },
    undefined,
    undefined,
    zone,
  ).samples;
  const ahead = new RowsAhead([steps], zone);
  const dates = storeAll(st, ahead, [samples]);
  expect(ahead.covers('step_count')).toBe(true);
  expect(ahead.get('step_count', '2024-01-04')?.samples).toBe(7);
  expect(rowsWithAhead(st, steps, dates, ahead)).toEqual(rowsForDates(st, steps, dates));
});
