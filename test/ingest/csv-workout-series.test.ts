/**
 * Health Auto Export writes a workout's own minute-by-minute values, when workout metrics are
 * included in a CSV export, as a file per series named `<workout>-<series>-<yyyyMMdd_HHmmss>.csv`:
 * `Outdoor Run-Active Energy-20260711_070000.csv` (`Date/Time,Active Energy (kcal),Source`) and
 * `Outdoor Run-Heart Rate-…` (`Date/Time,Min (count/min),Max (count/min),Avg (count/min),Context,Source`).
 * They are the workout's series, as the JSON export's `activeEnergy[]` and `heartRateData[]` are:
 * never the day's metrics. Before, a push holding them stored the heart rate file's columns as
 * metrics named min, max, avg and context (offered among the phone's metrics) and the workout's
 * minutes of energy and steps as the day's values when no Health Metrics file came with them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const BOUNDARY = 'Boundary-2F6A1C0E-5B7D-4E3A-9C21-7D4B8E0F1A35';

/** Files as the app posts them, each with its file name. */
function multipart(files: [string, string][]): Buffer {
  const parts = files.map(
    ([name, text]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n`,
  );
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}

const METRICS: [string, string] = [
  'HealthMetrics-2026-07-11.csv',
  'Date/Time,Active Energy (kcal),Heart Rate [Min] (count/min),Heart Rate [Max] (count/min),Heart Rate [Avg] (count/min),Step Count (count)\r\n2026-07-11 00:00:00,779.45,52,148,71.3,10448',
];
const WORKOUTS: [string, string] = [
  'Workouts-2026-07-11.csv',
  'Workout Type,Start,End,Duration,Active Energy (kcal),Avg Heart Rate (count/min),Max Heart Rate (count/min)\r\nOutdoor Run,2026-07-11 07:00:00,2026-07-11 07:30:00,0:30:00,350,150,172',
];
const SERIES: [string, string][] = [
  [
    'Outdoor Run-Active Energy-20260711_070000.csv',
    'Date/Time,Active Energy (kcal),Source\r\n2026-07-11 07:00:00,10.5,Apple Watch\r\n2026-07-11 07:01:00,11.5,Apple Watch',
  ],
  [
    'Outdoor Run-Step Count-20260711_070000.csv',
    'Date/Time,Step Count (count),Source\r\n2026-07-11 07:00:00,150,Apple Watch\r\n2026-07-11 07:01:00,160,Apple Watch',
  ],
  [
    'Outdoor Run-Heart Rate-20260711_070000.csv',
    'Date/Time,Min (count/min),Max (count/min),Avg (count/min),Context,Source\r\n2026-07-11 07:00:00,110,130,120,Active,Apple Watch\r\n2026-07-11 07:01:00,135,150,142,Active,Apple Watch',
  ],
];

const CARDS: [string, string][] = [
  ['energy', 'active_energy'],
  ['steps', 'step_count'],
  ['heart', 'heart_rate'],
  ['workouts', 'workouts'],
];

function post(s: IngestServer, body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    token: s.haeToken,
  });
}

describe("a workout's own series files in a CSV push", () => {
  it('are not read as metrics of the day: the day and the workout are what the other two files say', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await post(s, multipart([METRICS, WORKOUTS, ...SERIES]));
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok, r.text).toBe(true);
    // no metric made of a column of the heart rate series (min, max, avg, context)
    expect(r.body.availableUnsubscribed ?? []).toEqual([]);
    expect(r.body.warnings).toEqual([
      "CSV files of a workout's own series, not read as the day's values (the Health Metrics file holds those): Outdoor Run-Active Energy-20260711_070000.csv, Outdoor Run-Step Count-20260711_070000.csv, Outdoor Run-Heart Rate-20260711_070000.csv",
    ]);
    // the two files of the day: 3 metric points and the workout
    expect(r.body.samples).toEqual({ received: 4, new: 4 });
    const day = '2026-07-11';
    expect(await s.rows('energy')).toEqual([{ date: day, kcal: 779 }]);
    expect(await s.rows('steps')).toEqual([{ date: day, count: 10448 }]);
    expect(await s.rows('heart')).toEqual([{ date: day, min: 52, avg: 71.3, max: 148 }]);
    expect(await s.rows('workouts')).toEqual([
      {
        date: day,
        trained: true,
        type: 'Outdoor Run',
        durationMin: 30,
        calories: 350,
        avgHr: 150,
        maxHr: 172,
        startTime: '07:00',
      },
    ]);
  });

  it("with the workouts file alone, the workout's minutes are not taken for the day's energy and steps", async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await post(s, multipart([WORKOUTS, ...SERIES]));
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.samples).toEqual({ received: 1, new: 1 });
    expect(await s.rows('energy')).toEqual([]);
    expect(await s.rows('steps')).toEqual([]);
    expect(await s.rows('heart')).toEqual([]);
    expect(await s.rows('workouts')).toHaveLength(1);
  });

  it('the Health Metrics and Workouts files are read whatever their names', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await post(
      s,
      multipart([
        ['HealthAutoExport-Metrics-20260711_235900.csv', METRICS[1]],
        ['HealthAutoExport-Workouts-20260711_235900.csv', WORKOUTS[1]],
      ]),
    );
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings).toBeUndefined();
    expect(r.body.samples).toEqual({ received: 4, new: 4 });
    expect(await s.rows('workouts')).toHaveLength(1);
  });

  it('the heart rate series posted alone, without its file name, is told by its columns', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const r = await post(s, Buffer.from(SERIES[2][1]), 'text/csv');
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 0, new: 0 });
    expect(r.body.availableUnsubscribed ?? []).toEqual([]);
    expect(JSON.stringify(r.body)).toMatch(/a workout's own series/);
  });
});
