/**
 * One source writing a night partly as plain "Asleep" and partly in stages, through the real
 * webhook and the real Apple Health import: the first hours unstaged (a watch that began staging
 * part way, an app that logs plain sleep until the watch takes over), the rest Core, Deep and
 * REM, or an unstaged stretch beside staged ones. The night's sleep is all of it, the time both
 * cover counted once; awake time inside a plain asleep segment is not sleep. Before, a night with
 * any stage counted only the staged hours, and its bedtime was when the stages began.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** Stamp on 2026-04-<day> at `time`, Paris summer time. */
const at = (day: number, time: string) => `2026-04-${String(day).padStart(2, '0')} ${time} +0200`;

/**
 * Three nights of one watch, as [stage, start, end]:
 * 1. plain asleep 23:00-02:00, then Core 02:00-04:00, Deep 04:00-05:00, REM 05:00-06:30: 7.5 h;
 * 2. plain asleep 22:30-06:30 covering stages 23:00-06:00, and awake 03:00-03:30 inside it: 7.5 h;
 * 3. stages only, Core 23:00-03:00, REM 03:00-06:00: 7 h (as before).
 */
const NIGHTS: [string, string, string][] = [
  ['Asleep', at(10, '23:00:00'), at(11, '02:00:00')],
  ['Core', at(11, '02:00:00'), at(11, '04:00:00')],
  ['Deep', at(11, '04:00:00'), at(11, '05:00:00')],
  ['REM', at(11, '05:00:00'), at(11, '06:30:00')],
  ['Asleep', at(11, '22:30:00'), at(12, '06:30:00')],
  ['Core', at(11, '23:00:00'), at(12, '03:00:00')],
  ['Awake', at(12, '03:00:00'), at(12, '03:30:00')],
  ['Deep', at(12, '03:30:00'), at(12, '06:00:00')],
  ['Core', at(12, '23:00:00'), at(13, '03:00:00')],
  ['REM', at(13, '03:00:00'), at(13, '06:00:00')],
];

const ROWS = [
  {
    date: '2026-04-11',
    hours: 7.5,
    asleep: 3,
    core: 2,
    deep: 1,
    rem: 1.5,
    bedTime: '23:00',
    wakeTime: '06:30',
  },
  {
    date: '2026-04-12',
    hours: 7.5,
    asleep: 8,
    core: 4,
    deep: 2.5,
    awake: 0.5,
    bedTime: '22:30',
    wakeTime: '06:30',
  },
  { date: '2026-04-13', hours: 7, core: 4, rem: 3, bedTime: '23:00', wakeTime: '06:00' },
];

describe('a night partly staged, partly plain asleep', () => {
  it('pushed by Health Auto Export as segments: the night is all of its sleep', async () => {
    const s = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    srv = s;
    const data = NIGHTS.map(([value, startDate, endDate]) => ({
      startDate,
      endDate,
      qty:
        (Date.parse(endDate.replace(' +0200', '+02:00').replace(' ', 'T')) -
          Date.parse(startDate.replace(' +0200', '+02:00').replace(' ', 'T'))) /
        3_600_000,
      value,
      source: 'Watch',
    }));
    const r = await s.push(
      JSON.stringify({ data: { metrics: [{ name: 'sleep_analysis', units: 'hr', data }] } }),
    );
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('sleep')).toEqual(ROWS.map((row) => ({ ...row, source: 'Watch' })));
  });

  it('in an Apple Health export: the same nights', async () => {
    const s = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    srv = s;
    const value = (stage: string) =>
      `HKCategoryValueSleepAnalysis${stage === 'Asleep' ? 'AsleepUnspecified' : stage === 'Awake' ? 'Awake' : `Asleep${stage}`}`;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="fr_FR">',
      ' <ExportDate value="2026-04-20 09:00:00 +0200"/>',
      ...NIGHTS.map(
        ([stage, start, end]) =>
          ` <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Apple Watch" creationDate="${end}" startDate="${start}" endDate="${end}" value="${value(stage)}"/>`,
      ),
      '</HealthData>',
      '',
    ].join('\n');
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    const rows = await s.rows('sleep');
    expect(rows.map((row) => [row.date, row.hours, row.bedTime])).toEqual(
      ROWS.map((row) => [row.date, row.hours, row.bedTime]),
    );
  });
});
