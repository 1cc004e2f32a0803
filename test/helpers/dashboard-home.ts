/**
 * A lived-in home for the dashboard's browser tests and benchmark: the shipped example manifests
 * (read from ../shared/cases at run time, never copied into the repo) and a few weeks of rows
 * that look like a person's, ending on a given day. Deterministic: the same `today` gives the
 * same rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addDays } from '../../src/common/dates.js';
import { casesDir } from './sandbox-home.js';

/** The folder of the shipped example manifests. */
export const examplesDir = path.join(casesDir, 'manifests/examples');

/** Every example file name (`weight.example.json`, ...), sorted. */
export function exampleFiles(): string[] {
  return fs
    .readdirSync(examplesDir)
    .filter((n) => n.endsWith('.json') && fs.statSync(path.join(examplesDir, n)).isFile())
    .sort();
}

/** One example manifest, parsed (`id` is the file's stem before `.example.json`). */
// biome-ignore lint/suspicious/noExplicitAny: manifests are open-ended JSON
export function readExample(id: string): any {
  return JSON.parse(fs.readFileSync(path.join(examplesDir, `${id}.example.json`), 'utf8'));
}

/**
 * Writes example manifests into `dataDir` as `<id>.json`; `edit` may change a parsed copy first
 * (the files in the cases folder are never touched).
 */
export function writeExamples(
  dataDir: string,
  ids: string[],
  // biome-ignore lint/suspicious/noExplicitAny: manifests are open-ended JSON
  edit?: (id: string, manifest: any) => void,
): void {
  fs.mkdirSync(dataDir, { recursive: true });
  for (const id of ids) {
    const m = readExample(id);
    edit?.(id, m);
    fs.writeFileSync(path.join(dataDir, `${id}.json`), `${JSON.stringify(m, null, 2)}\n`);
  }
}

/** A small deterministic pseudo-random source (mulberry32), so that pictures do not change between runs. */
export function randomFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * Rows for the everyday example cards over the `days` days ending on `today` (inclusive), keyed by
 * card id, as their `data` blocks: weight, bp (some days twice), mood, sleep-hours, sleep-quality,
 * steps, hydration, energy, heart-rate-resting, caffeine, and taken doses for medication-schedule.
 * A day here and there is missing, as in real life; `today` itself has an entry on every card.
 */
export function lifeLikeData(today: string, days = 45): Record<string, unknown> {
  const rnd = randomFrom(20260420);
  const dates = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  const some = (skip: number) => dates.filter((d, i) => d === today || rnd() > skip || i % 11 === 3);
  const weight = some(0.15).map((date, i, all) => ({
    date,
    kg: round(86.4 - (1.8 * i) / all.length + (rnd() - 0.5) * 0.6, 1),
  }));
  const bp = some(0.3).flatMap((date) => {
    const one = {
      date,
      time: '07:30',
      systolic: Math.round(118 + rnd() * 16),
      diastolic: Math.round(74 + rnd() * 10),
    };
    return rnd() > 0.7
      ? [
          one,
          {
            date,
            time: '21:10',
            systolic: Math.round(114 + rnd() * 12),
            diastolic: Math.round(72 + rnd() * 8),
          },
        ]
      : [one];
  });
  const mood = some(0.2).map((date) => ({
    date,
    mood: 2 + Math.round(rnd() * 3),
    wakeUps: Math.round(rnd() * 2),
  }));
  const sleepHours = some(0.1).map((date) => ({ date, hours: round(5.8 + rnd() * 2.8, 1) }));
  const sleepQuality = some(0.25).map((date) => ({ date, rating: 2 + Math.round(rnd() * 3) }));
  const steps = some(0.05).map((date) => ({ date, count: Math.round(3500 + rnd() * 10500) }));
  const hydration = some(0.3).map((date) => ({ date, glasses: 3 + Math.round(rnd() * 6) }));
  const energy = some(0.3).map((date) => ({ date, rating: 2 + Math.round(rnd() * 3) }));
  const hr = some(0.15).map((date) => ({ date, bpm: Math.round(56 + rnd() * 14) }));
  const caffeine = some(0.2).map((date) => ({ date, mg: Math.round(60 + rnd() * 300), source: 'coffee' }));
  const med = readExample('medication-schedule').data;
  const start = addDays(today, -20);
  for (const item of med.items) {
    item.cycles = [{ type: 'on', start, end: addDays(today, 10) }];
    item.doses = dates
      .filter((d) => d >= start && d < today)
      .flatMap((d) =>
        [8, 12, 17, 22].map((h) => ({
          scheduledDate: d,
          takenAt: rnd() > 0.12 ? `${d}T${String(h).padStart(2, '0')}:05:00Z` : null,
        })),
      );
  }
  return {
    weight,
    bp,
    mood,
    'sleep-hours': sleepHours,
    'sleep-quality': sleepQuality,
    steps,
    hydration,
    energy,
    'heart-rate-resting': hr,
    caffeine,
    'medication-schedule': med,
  };
}
