/**
 * Sleep stages from a phone set to another language, through the real webhook. Health Auto Export
 * writes a segment's stage as display text in the phone's language (`Kern`, `Tief`, `Wach`,
 * `Im Bett` on a German phone), so the same night arrives in many spellings: each must give the
 * same night as the English one. A stage name nobody knows is named in the push's warnings and is
 * counted as nothing, never as some other stage.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** In bed 22:00-07:00, Core 22:30-02:30, Deep 02:30-04:30, REM 04:30-06:00, Awake 06:00-06:30. */
const TIMES: [string, string][] = [
  ['2026-06-01 22:00:00 +0200', '2026-06-02 07:00:00 +0200'],
  ['2026-06-01 22:30:00 +0200', '2026-06-02 02:30:00 +0200'],
  ['2026-06-02 02:30:00 +0200', '2026-06-02 04:30:00 +0200'],
  ['2026-06-02 04:30:00 +0200', '2026-06-02 06:00:00 +0200'],
  ['2026-06-02 06:00:00 +0200', '2026-06-02 06:30:00 +0200'],
];
const HOURS = [9, 4, 2, 1.5, 0.5];

/** The same five stages (in bed, core, deep, REM, awake) as phones in other languages write them. */
const LANGUAGES: Record<string, [string, string, string, string, string]> = {
  English: ['In Bed', 'Core', 'Deep', 'REM', 'Awake'],
  German: ['Im Bett', 'Kern', 'Tief', 'REM', 'Wach'],
  French: ['Au lit', 'Principal', 'Profond', 'Paradoxal', 'Éveillé'],
  Spanish: ['En cama', 'Principal', 'Profundo', 'REM', 'Despierto'],
  Dutch: ['In bed', 'Kern', 'Diep', 'REM', 'Wakker'],
  Italian: ['A letto', 'Principale', 'Profondo', 'REM', 'Sveglio'],
  Japanese: ['ベッド内', 'コア', '深い', 'レム', '覚醒'],
  'Apple identifiers': [
    'HKCategoryValueSleepAnalysisInBed',
    'HKCategoryValueSleepAnalysisAsleepCore',
    'HKCategoryValueSleepAnalysisAsleepDeep',
    'HKCategoryValueSleepAnalysisAsleepREM',
    'HKCategoryValueSleepAnalysisAwake',
  ],
  phrases: ['in_bed', 'Asleep (Core)', 'Tiefschlaf', 'Sommeil paradoxal', 'awake'],
};

const ROW = {
  date: '2026-06-02',
  hours: 7.5,
  inBed: 9,
  core: 4,
  deep: 2,
  rem: 1.5,
  awake: 0.5,
  bedTime: '22:30',
  wakeTime: '06:30',
  source: 'Watch',
};

function segments(names: string[]) {
  return names.map((value, i) => ({
    startDate: TIMES[i][0],
    endDate: TIMES[i][1],
    qty: HOURS[i],
    value,
    source: 'Watch',
  }));
}

function push(data: unknown[]): string {
  return JSON.stringify({ data: { metrics: [{ name: 'sleep_analysis', units: 'hr', data }] } });
}

describe('sleep stages in the phone’s language', () => {
  it('segments in English, German, French, Spanish, Dutch, Italian, Japanese or Apple’s identifiers give one night', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    for (const [language, names] of Object.entries(LANGUAGES)) {
      const r = await srv.push(push(segments(names)));
      expect({ language, status: r.status, warnings: r.body.warnings ?? [] }).toEqual({
        language,
        status: 200,
        warnings: [],
      });
      // segments: woken at the end of the last sleep (06:00), the awake half hour after it
      expect({ language, rows: await srv.rows('sleep') }).toEqual({
        language,
        rows: [{ ...ROW, wakeTime: '06:00' }],
      });
    }
  });

  it('a nightly row with its stages under translated names is read as the English one', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const night = {
      date: '2026-06-02 00:00:00 +0200',
      sleepStart: '2026-06-01 22:30:00 +0200',
      sleepEnd: '2026-06-02 06:30:00 +0200',
      inBedStart: '2026-06-01 22:00:00 +0200',
      inBedEnd: '2026-06-02 07:00:00 +0200',
      Kern: 4,
      Tief: 2,
      REM: 1.5,
      Wach: 0.5,
      'Im Bett': 9,
      source: 'Watch',
    };
    const r = await srv.push(push([night]));
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('sleep')).toEqual([ROW]);
  });

  it('an unknown stage is named in a warning and counted as no stage', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const names = [...LANGUAGES.English];
    names[2] = 'Schlummer';
    const r = await srv.push(push(segments(names)));
    expect(r.status).toBe(200);
    const warnings = (r.body.warnings ?? []) as string[];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('unknown sleep stage');
    expect(warnings[0]).toContain('Schlummer');
    const [row] = await srv.rows('sleep');
    expect(row).toMatchObject({ core: 4, rem: 1.5, awake: 0.5 });
    expect(row.deep).toBeUndefined();

    // in a nightly row: the night is kept, the unknown field named and left out
    const night = {
      date: '2026-06-09 00:00:00 +0200',
      sleepStart: '2026-06-08 23:00:00 +0200',
      sleepEnd: '2026-06-09 07:00:00 +0200',
      core: 5,
      deep: 1,
      rem: 1,
      Schlummer: 1,
      source: 'Watch',
    };
    const n = await srv.push(push([night]));
    expect(n.status).toBe(200);
    const nightWarnings = (n.body.warnings ?? []) as string[];
    expect(nightWarnings).toHaveLength(1);
    expect(nightWarnings[0]).toContain('unknown sleep stage');
    expect(nightWarnings[0]).toContain('Schlummer');
    expect((await srv.rows('sleep')).find((x) => x.date === '2026-06-09')).toMatchObject({ hours: 7 });
  });
});
