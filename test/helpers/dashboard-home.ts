/**
 * A lived-in home for the dashboard's browser tests and benchmark: the card templates of
 * templates/ and a few weeks of rows that look like a person's, ending on a given day.
 * Deterministic: the same `today` gives the same rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { addDays } from '../../src/common/dates.js';
import { dosesDue, isItemDue } from '../../src/common/schedule.js';
import { readTemplate, templateIds, templatesDir } from './templates.js';

/** The folder of the card templates. */
export const examplesDir = templatesDir;

/** Every template file name (`weight.json`, ...), sorted. */
export function exampleFiles(): string[] {
  return templateIds().map((id) => `${id}.json`);
}

/** One card template, parsed (a fresh copy each call). */
// biome-ignore lint/suspicious/noExplicitAny: manifests are open-ended JSON
export function readExample(id: string): any {
  return readTemplate(id);
}

/**
 * Writes card templates into `dataDir` as `<id>.json`; `edit` may change a parsed copy first
 * (the files in templates/ are never touched).
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
 * Rows for the everyday template cards over the `days` days ending on `today` (inclusive), keyed by
 * card id, as their `data` blocks: weight, bp (some days twice), mood, sleep-hours, steps,
 * hydration, energy, heart-rate-resting, caffeine, and doses for medication-schedule (each item as
 * often as its schedule asks, now and then missed). A day here and there is missing, as in real
 * life; `today` itself has an entry on every card.
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
      pulse: Math.round(58 + rnd() * 14),
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
  const notes = ['slept in', 'busy day at work', 'long walk with a friend', 'headache in the afternoon'];
  const mood = some(0.2).map((date) => {
    const row: Record<string, unknown> = { date, mood: 2 + Math.round(rnd() * 3) };
    if (rnd() > 0.6) row.note = notes[Math.floor(rnd() * notes.length)];
    return row;
  });
  const sleepHours = some(0.1).map((date) => ({
    date,
    hours: round(5.8 + rnd() * 2.8, 1),
    quality: 2 + Math.round(rnd() * 3),
    wakeUps: Math.round(rnd() * 2),
  }));
  const steps = some(0.05).map((date) => ({ date, count: Math.round(3500 + rnd() * 10500) }));
  const hydration = some(0.3).map((date) => ({ date, glasses: 3 + Math.round(rnd() * 6) }));
  const energy = some(0.3).map((date) => ({ date, level: 2 + Math.round(rnd() * 3) }));
  const hr = some(0.15).map((date) => ({ date, bpm: Math.round(56 + rnd() * 14) }));
  const caffeine = some(0.2).map((date) => ({
    date,
    time: '08:15',
    drink: 'filter',
    mg: 95 * (1 + Math.round(rnd() * 2)),
  }));
  const med = readExample('medication-schedule').data;
  const start = addDays(today, -20);
  for (const item of med.items) {
    item.doses = dates
      .filter((d) => d >= start && d < today && isItemDue(item, d))
      .flatMap((d) =>
        [8, 12, 17, 22].slice(0, dosesDue(item, d)).map((h) => ({
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
    steps,
    hydration,
    energy,
    'heart-rate-resting': hr,
    caffeine,
    'medication-schedule': med,
  };
}
