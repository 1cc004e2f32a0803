/**
 * Re-importing a newer Apple Health export stores nothing twice. Exports hold many records of one
 * source with the same start (several heart-rate or step samples of a Watch in one second, a
 * buggy app's double writes); a newer export holds the whole old history plus new records, in
 * places before and between the old ones, and Apple may order same-instant records differently.
 * Keys depend on each record's own content (and, for identical records, how many times that
 * record occurs in the file), never on where it sits in the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { importAppleHealthFile } from '../../src/ingest/apple-health/import-xml.js';
import { dedupKeyOf, type SampleSpan, type SampleValue } from '../../src/ingest/hae/format/sample.js';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { openInstance } from '../../src/instance.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-same-instant-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Rec {
  type: 'HeartRate' | 'StepCount';
  start: string;
  end: string;
  value: number;
}

function stamp(second: number): string {
  const t = new Date(Date.UTC(2024, 0, 1) + second * 1000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)} +0000`;
}

function xml(records: Rec[]): string {
  const lines = records.map((r) => {
    const unit = r.type === 'HeartRate' ? 'count/min' : 'count';
    return ` <Record type="HKQuantityTypeIdentifier${r.type}" sourceName="Watch" unit="${unit}" creationDate="${r.end}" startDate="${r.start}" endDate="${r.end}" value="${r.value}"/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-06-01 00:00:00 +0000"/>\n${lines.join('\n')}\n</HealthData>\n`;
}

/**
 * The old history: same-second groups of one source throughout (two or three heart-rate values
 * in one second, two step records with one start and different ends, and a record written twice).
 */
function history(): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < 9000; i++) {
    const s = stamp(i * 60);
    const e = stamp(i * 60 + 1);
    out.push({ type: 'HeartRate', start: s, end: e, value: 60 + (i % 40) });
    if (i % 3 === 0) out.push({ type: 'HeartRate', start: s, end: e, value: 61 + (i % 40) });
    if (i % 5 === 0) out.push({ type: 'HeartRate', start: s, end: e, value: 90 });
    if (i % 4 === 0) {
      out.push({ type: 'StepCount', start: s, end: e, value: 10 + (i % 7) });
      out.push({ type: 'StepCount', start: s, end: stamp(i * 60 + 30), value: 10 + (i % 7) });
    }
    if (i % 11 === 0) {
      // the same record twice: counts as two
      out.push({ type: 'StepCount', start: stamp(i * 60 + 5), end: stamp(i * 60 + 6), value: 3 });
      out.push({ type: 'StepCount', start: stamp(i * 60 + 5), end: stamp(i * 60 + 6), value: 3 });
    }
  }
  return out;
}

/** A newer export: new records before and between the old ones, each same-second group reversed. */
function newer(old: Rec[]): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < 2345; i++) {
    const s = stamp(-(i + 1) * 60);
    out.push({ type: 'HeartRate', start: s, end: s, value: 70 });
  }
  let group: Rec[] = [];
  const flush = () => {
    out.push(...group.reverse());
    group = [];
  };
  for (const [i, r] of old.entries()) {
    if (group.length && (group[0].start !== r.start || group[0].type !== r.type)) flush();
    group.push(r);
    if (i % 997 === 0) {
      flush();
      for (let k = 0; k < 37; k++) {
        const s = stamp(9000 * 60 + i * 40 + k);
        out.push({ type: 'StepCount', start: s, end: s, value: 5 });
      }
    }
  }
  flush();
  return out;
}

const open = (home: string) =>
  openInstance(loadConfig({ HEALTH_HOME: home, KLEBB_LOG_LEVEL: 'silent' }), { watch: false });

type Instance = Awaited<ReturnType<typeof open>>;

/** The old history and a newer export of it, written to `<name>-first.xml` and `<name>-second.xml`. */
function writeExports(name: string) {
  const old = history();
  const next = newer(old);
  const first = path.join(dir, `${name}-first.xml`);
  const second = path.join(dir, `${name}-second.xml`);
  fs.writeFileSync(first, xml(old));
  fs.writeFileSync(second, xml(next));
  return { old, next, first, second };
}

/** Runs `fn` with a new sandbox home, removed afterwards. */
async function inSandbox<T>(fn: (home: string) => Promise<T>): Promise<T> {
  const box = sandboxHome();
  try {
    return await fn(box.home);
  } finally {
    box.remove();
  }
}

/** Runs `fn` with the instance of `home` open, closed afterwards. */
async function withInstance<T>(home: string, fn: (inst: Instance) => Promise<T>): Promise<T> {
  const inst = await open(home);
  try {
    return await fn(inst);
  } finally {
    await inst.close();
  }
}

/** How many samples the instance stores. */
const sampleCount = (inst: Instance) =>
  inst.db.prepare('SELECT count(*) FROM hae_samples').pluck().get() as number;

describe('re-importing a newer export', () => {
  it('adds only the new records, whatever their order and wherever the old ones now sit', async () => {
    const { old, next, first, second } = writeExports('plain');
    await inSandbox((home) =>
      withInstance(home, async (inst) => {
        await importAppleHealthFile(inst.hae, first);
        // every record is one distinct sample, the record written twice included
        expect(sampleCount(inst)).toBe(old.length);
        await importAppleHealthFile(inst.hae, first);
        expect(sampleCount(inst)).toBe(old.length);
        await importAppleHealthFile(inst.hae, second);
        expect(next.length - old.length).toBe(2345 + Math.ceil(old.length / 997) * 37);
        expect(sampleCount(inst)).toBe(next.length);
        await importAppleHealthFile(inst.hae, second);
        expect(sampleCount(inst)).toBe(next.length);
      }),
    );
  }, 120_000);
});

interface StoredRow {
  id: number;
  k: string;
  metric: string;
  date: string;
  at: string;
  span: SampleSpan;
  source: string | null;
  vals: string;
}

const ROWS = 'SELECT id, hex(dedup_key) k, metric, date, at, span, source, vals FROM hae_samples ORDER BY id';

/**
 * The rows the earlier keys gave for `rows` (one import, in file order): the 2nd, 3rd ... sample
 * of one instant and source numbered by position, whatever its values; `reversed` numbers each
 * group from its end (the same records in another order).
 */
function oldScheme(rows: StoredRow[], reversed: boolean): StoredRow[] {
  const groups = new Map<string, StoredRow[]>();
  for (const r of rows) {
    const g = `${r.metric}|${r.at}|${r.source}|${r.span}`;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  return [...groups.values()].flatMap((g) =>
    g.map((r, i) => {
      const n = reversed ? g.length - 1 - i : i;
      const { seq: _seq, ...base } = JSON.parse(r.vals) as Record<string, SampleValue>;
      const vals = n > 0 ? { ...base, seq: n } : base;
      const t = parseHaeTimestamp(r.at);
      if (!t) throw new Error(`unreadable ${r.at}`);
      return { ...r, vals: JSON.stringify(vals), k: dedupKeyOf(r.metric, t, r.span, vals, r.source) };
    }),
  );
}

describe('a home stored with the earlier keys', () => {
  it('is re-keyed on opening: every distinct sample kept once, re-imports add only new records', async () => {
    const { old, next, first, second } = writeExports('m');
    // what the current keys store for the first export
    const rows = await inSandbox((home) =>
      withInstance(home, async (inst) => {
        await importAppleHealthFile(inst.hae, first);
        return inst.db.prepare(ROWS).all() as StoredRow[];
      }),
    );
    expect(rows.length).toBe(old.length);

    await inSandbox(async (home) => {
      const dbFile = await withInstance(home, async (inst) => inst.layout.dbFile);
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true });
      const db = new Database(dbFile);
      const upTo = 5; // the schema before re-keying
      for (const m of MIGRATIONS.slice(0, upTo)) if (typeof m === 'string') db.exec(m);
      db.pragma(`user_version = ${upTo}`);
      db.exec(`INSERT INTO hae_pushes (id, received_at, origin, bytes) VALUES
        (1, '2026-01-01T00:00:00Z', 'apple-health', 1), (2, '2026-02-01T00:00:00Z', 'apple-health', 1)`);
      const put = db.prepare(
        `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
         VALUES (unhex(?), ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      );
      // the first export imported, then the same records in another order (a newer export)
      db.transaction(() => {
        for (const [push, reversed] of [
          [1, false],
          [2, true],
        ] as const) {
          for (const r of oldScheme(rows, reversed))
            put.run(r.k, r.metric, r.date, r.at, r.span, r.source, r.vals, push);
        }
      })();
      const stored = db.prepare('SELECT count(*) FROM hae_samples').pluck().get() as number;
      db.close();
      // the earlier keys stored part of the history twice
      expect(stored).toBeGreaterThan(old.length + 1000);

      await withInstance(home, async (inst) => {
        expect(inst.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
        // exactly the keys and values a fresh import stores, each once
        const migrated = inst.db.prepare(ROWS).all() as StoredRow[];
        const text = (r: StoredRow) => `${r.k} ${r.metric} ${r.date} ${r.at} ${r.span} ${r.source} ${r.vals}`;
        expect(migrated.map(text).sort()).toEqual(rows.map(text).sort());
        await importAppleHealthFile(inst.hae, first);
        expect(sampleCount(inst)).toBe(old.length);
        await importAppleHealthFile(inst.hae, second);
        expect(sampleCount(inst)).toBe(next.length);
      });
    });
  }, 120_000);
});
