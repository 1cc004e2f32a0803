/**
 * OccurrenceWindows (src/ingest/apple-health/occurrence-windows.ts): the identical-sample counts
 * of an export kept per (metric, date), the least recently used written to a spill file. Its
 * answers must be those of one OccurrenceCounter over the whole file, in any record order, also
 * when a (metric, date) comes back after its counts were spilled.
 */
import { hash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { OccurrenceWindows } from '../../src/ingest/apple-health/occurrence-windows.js';
import { OccurrenceCounter } from '../../src/ingest/hae/format/occurrences.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function spillPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-occ-'));
  dirs.push(dir);
  return path.join(dir, 'counts');
}

/** A sample content: its key depends on (metric, date) and a number, as a content hash does. */
function content(metric: string, day: number, n: number) {
  const date = `2024-01-${String(day).padStart(2, '0')}`;
  return { metric, date, key: hash('sha256', `${metric}|${date}|${n}`, 'hex').slice(0, 32) };
}

/** A deterministic shuffle (xorshift), so a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = items.slice();
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const j = (x >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

it('answers as one counter over the whole file when (metric, date)s come back after being spilled', () => {
  const reads: ReturnType<typeof content>[] = [];
  for (const metric of ['step_count', 'heart_rate', 'sleep_analysis']) {
    for (let day = 1; day <= 28; day++) {
      for (let n = 0; n < 60; n++) {
        reads.push(content(metric, day, n));
        if (n % 4 === 0) reads.push(content(metric, day, n));
        if (n % 9 === 0) reads.push(content(metric, day, n), content(metric, day, n));
      }
    }
  }
  // in file order (grouped), then shuffled: the second order revisits every window again and again
  for (const order of [reads, shuffled(reads, 7)]) {
    const file = spillPath();
    const windows = new OccurrenceWindows(file, 512);
    const whole = new OccurrenceCounter();
    let spilled = false;
    for (const r of order) {
      expect(windows.next(r.key, r.metric, r.date)).toBe(whole.next(r.key));
      spilled ||= fs.existsSync(file) && fs.statSync(file).size > 0;
    }
    expect(spilled).toBe(true);
    windows.close();
    expect(fs.existsSync(file)).toBe(false);
  }
});

it('keeps no spill file while the counts fit in memory', () => {
  const file = spillPath();
  const windows = new OccurrenceWindows(file);
  const a = content('step_count', 1, 1);
  expect([windows.next(a.key, a.metric, a.date), windows.next(a.key, a.metric, a.date)]).toEqual([0, 1]);
  expect(fs.existsSync(file)).toBe(false);
  windows.close();
});
