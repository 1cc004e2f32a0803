/**
 * Time in bed recorded by one app and the sleep stages by another (the iPhone records "in bed",
 * the Watch Core/Deep/REM): the night's row keeps the in-bed time, whether the night comes from an
 * Apple Health export, from Health Auto Export segments or from its one-row-per-night summaries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

const C = 'HKCategoryTypeIdentifierSleepAnalysis';
const V = 'HKCategoryValueSleepAnalysis';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** In bed 22:00-07:00 (iPhone), Core 22:30-02:30 and Deep 02:30-06:30 (Watch), night to 2 June. */
const NIGHT: [string, string, string, string][] = [
  ['iPhone', '2026-06-01 22:00:00 -0500', '2026-06-02 07:00:00 -0500', 'InBed'],
  ['Watch', '2026-06-01 22:30:00 -0500', '2026-06-02 02:30:00 -0500', 'AsleepCore'],
  ['Watch', '2026-06-02 02:30:00 -0500', '2026-06-02 06:30:00 -0500', 'AsleepDeep'],
];

/** 8 h asleep (4 core + 4 deep) and 9 h in bed, woken 06:30 on 2 June. */
const ROW = {
  date: '2026-06-02',
  hours: 8,
  inBed: 9,
  core: 4,
  deep: 4,
  bedTime: '22:30',
  wakeTime: '06:30',
  source: 'Watch',
};

describe('in bed from another source than the stages', () => {
  it('an Apple Health export', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      ...NIGHT.map(
        ([src, start, end, v]) =>
          ` <Record type="${C}" sourceName="${src}" sourceVersion="9.0" creationDate="${end}" startDate="${start}" endDate="${end}" value="${V}${v}"/>`,
      ),
      '</HealthData>',
    ].join('\n');
    const r = await srv.api('/api/apple-health/import', { method: 'POST', body: xml });
    expect(r.status).toBe(200);
    expect(await srv.rows('sleep')).toEqual([ROW]);
  });

  it('Health Auto Export segments (Summarize Data off)', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const data = NIGHT.map(([source, startDate, endDate, v]) => ({
      startDate,
      endDate,
      qty:
        (Date.parse(endDate.replace(' -0500', '-05:00').replace(' ', 'T')) -
          Date.parse(startDate.replace(' -0500', '-05:00').replace(' ', 'T'))) /
        3_600_000,
      value: v === 'InBed' ? 'In Bed' : v.replace('Asleep', ''),
      source,
    }));
    const r = await srv.push(
      JSON.stringify({ data: { metrics: [{ name: 'sleep_analysis', units: 'hr', data }] } }),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('sleep')).toEqual([ROW]);
  });

  it('Health Auto Export nights (one row per source)', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const data = [
      {
        date: '2026-06-02 00:00:00 -0500',
        inBed: 9,
        asleep: 0,
        inBedStart: '2026-06-01 22:00:00 -0500',
        inBedEnd: '2026-06-02 07:00:00 -0500',
        source: 'iPhone',
      },
      {
        date: '2026-06-02 00:00:00 -0500',
        core: 4,
        deep: 4,
        rem: 0,
        asleep: 0,
        inBed: 0,
        sleepStart: '2026-06-01 22:30:00 -0500',
        sleepEnd: '2026-06-02 06:30:00 -0500',
        source: 'Watch',
      },
    ];
    const r = await srv.push(
      JSON.stringify({ data: { metrics: [{ name: 'sleep_analysis', units: 'hr', data }] } }),
    );
    expect(r.status).toBe(200);
    expect(await srv.rows('sleep')).toEqual([ROW]);
  });
});
