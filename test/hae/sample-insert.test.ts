/**
 * HaeSampleStore.insert writes many samples per statement: the count of new samples, the dates
 * that got one and the arrival order must be what one insert per sample gave, also when a
 * statement's rows are partly stored already (a re-send overlapping a push) and for the
 * remainders written by smaller statements.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupKeyOf, type Sample } from '../../src/ingest/hae/format/sample.js';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { HaeSampleStore } from '../../src/ingest/hae/sample-store.js';
import { MIGRATION_STEPS } from '../../src/migration-steps.js';
import { closeDatabase, type Db, openDatabase } from '../../src/store/database.js';

let db: Db | undefined;
afterEach(() => {
  if (db) closeDatabase(db);
  db = undefined;
});

function openStore(): HaeSampleStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-sample-insert-'));
  db = openDatabase(path.join(dir, 'klebb.sqlite'), { steps: MIGRATION_STEPS });
  return new HaeSampleStore(db);
}

/** Sample `i` of `metric`: one a day from 2024-01-01, `qty` = i. */
function sample(metric: string, i: number): Sample {
  const day = new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const at = `${day} 08:00:00 +0100`;
  const time = parseHaeTimestamp(at);
  if (!time) throw new Error(at);
  const values = { qty: i };
  return {
    metric,
    date: day,
    at,
    values,
    source: 'Watch',
    span: 'sample',
    dedupKey: dedupKeyOf(metric, time, 'sample', values, 'Watch'),
  };
}

function range(metric: string, from: number, to: number): Sample[] {
  const out: Sample[] = [];
  for (let i = from; i < to; i++) out.push(sample(metric, i));
  return out;
}

function datesOf(samples: Sample[]): string[] {
  return samples.map((s) => s.date).sort();
}

describe('HaeSampleStore.insert', () => {
  it('stores every new sample once, in arrival order, and names the dates that got one', () => {
    const store = openStore();
    const push = store.transaction(() => store.beginPush('hae', new Date().toISOString(), 1));
    // 64 + 32 + 4 + 1 rows: a full statement and the remainders
    const first = [...range('step_count', 0, 80), ...range('weight_body_mass', 0, 21)];
    const r = store.insert(first, push);
    expect(r.offered).toBe(101);
    expect(r.inserted).toBe(101);
    expect([...(r.affected.get('step_count') ?? [])].sort()).toEqual(datesOf(first.slice(0, 80)));
    expect([...(r.affected.get('weight_body_mass') ?? [])].sort()).toEqual(datesOf(first.slice(80)));
    const stored = store.samplesFor('step_count', store.datesOf('step_count'));
    expect(stored.map((s) => s.values.qty)).toEqual(first.slice(0, 80).map((s) => s.values.qty));
    expect(stored.map((s) => s.dedupKey)).toEqual(first.slice(0, 80).map((s) => s.dedupKey));
  });

  it('counts only the new samples of a statement whose rows were partly stored before', () => {
    const store = openStore();
    const push = store.transaction(() => store.beginPush('hae', new Date().toISOString(), 1));
    // every third sample of 0..150 stored first
    const old = range('step_count', 0, 150).filter((_, i) => i % 3 === 0);
    expect(store.insert(old, push).inserted).toBe(50);
    const all = range('step_count', 0, 150);
    const r = store.insert(all, push);
    const fresh = all.filter((_, i) => i % 3 !== 0);
    expect(r.inserted).toBe(100);
    expect([...(r.affected.get('step_count') ?? [])].sort()).toEqual(datesOf(fresh));
    expect(store.count('step_count')).toBe(150);
    // arrival order: the old ones first, then the new ones as offered
    const stored = store.samplesFor('step_count', store.datesOf('step_count'));
    expect(stored.map((s) => s.values.qty)).toEqual([...old, ...fresh].map((s) => s.values.qty));
    // the same again adds nothing and names no date
    const again = store.insert(all, push);
    expect(again.inserted).toBe(0);
    expect(again.affected.size).toBe(0);
  });

  it('a sample offered twice in one call is stored once', () => {
    const store = openStore();
    const push = store.transaction(() => store.beginPush('hae', new Date().toISOString(), 1));
    const some = range('step_count', 0, 40);
    const r = store.insert([...some, ...some], push);
    expect(r.inserted).toBe(40);
    expect([...(r.affected.get('step_count') ?? [])].sort()).toEqual(datesOf(some));
    expect(store.count()).toBe(40);
  });
});
