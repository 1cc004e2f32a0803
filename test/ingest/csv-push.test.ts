/**
 * An automation set to CSV posts multipart/form-data with its Health Metrics and Workouts files:
 * both are read as the JSON export would be (columns named by display name and unit, the parts of
 * heart rate, blood pressure and sleep in square brackets, empty cells no point), and fill the
 * same cards; a CSV file alone is read too, and a CSV body with nothing Klebb reads is kept aside
 * with advice, as before.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const METRICS_CSV = [
  'Date/Time,Active Energy (kcal),Blood Oxygen Saturation (%),Heart Rate [Min] (count/min),Heart Rate [Max] (count/min),Heart Rate [Avg] (count/min),Resting Heart Rate (count/min),Sleep Analysis [Total] (hr),Sleep Analysis [Asleep] (hr),Sleep Analysis [In Bed] (hr),Sleep Analysis [Core] (hr),Sleep Analysis [Deep] (hr),Sleep Analysis [REM] (hr),Sleep Analysis [Awake] (hr),Step Count (count),VO2 Max (ml/(kg·min)),Walking + Running Distance (mi),Weight & Body Mass (lb),Blood Pressure [Systolic] (mmHg),Blood Pressure [Diastolic] (mmHg)',
  '2026-07-11 00:00:00,779.45,97.5,52,148,71.3,55,7.2,0,7.9,4.1,1.2,1.9,0.4,10448,44.1,4.12,170.4,,',
  '2026-07-12 00:00:00,625.32,,50,131,68.9,54,,,,,,,,7499,,3.05,,122,79',
].join('\r\n');

const WORKOUTS_CSV = [
  'Workout Type,Start,End,Duration,Active Energy (kcal),Resting Energy (kcal),Intensity (kcal/hr·kg),Max. Heart Rate (count/min),Avg. Heart Rate (count/min),Distance (mi),Max. Speed (mi/hr),Avg. Speed (mi/hr),Flights Climbed,Elevation Ascended (ft),Elevation Descended (ft),Step Count,Location,',
  'Outdoor Run,2026-07-11 07:00:00,2026-07-11 07:30:00,0:30:00,350,45,9.1,172,150,3.5,8.5,7,2,120,110,4500,Outdoor,',
  '"Traditional Strength Training, upper body",2026-07-12 18:00:00,2026-07-12 18:45:00,0:45:00,210,60,4.2,,,,,,,,,,Indoor,',
].join('\r\n');

const BOUNDARY = 'Boundary-7C1B4A62-93F0-4C4B-9E57-0A2F3D1E2B11';

/** The two files as the app posts them. */
function multipart(files: [string, string][]): Buffer {
  const parts = files.map(
    ([name, text]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.csv"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n`,
  );
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['energy', 'active_energy'],
  ['heart', 'heart_rate'],
  ['resting', 'resting_heart_rate'],
  ['sleep', 'sleep_analysis'],
  ['weight', 'weight_body_mass'],
  ['distance', 'walking_running_distance'],
  ['bp', 'blood_pressure'],
  ['oxygen', 'blood_oxygen_saturation'],
  ['vo2', 'vo2_max'],
  ['workouts', 'workouts'],
];

function post(s: IngestServer, body: Buffer | string, contentType: string) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    token: s.haeToken,
  });
}

describe('a push in CSV', () => {
  it('the metrics and workouts files of a multipart push fill the cards as the JSON export does', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await post(
      srv,
      multipart([
        ['HealthMetrics', METRICS_CSV],
        ['Workouts', WORKOUTS_CSV],
      ]),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings).toBeUndefined();
    const a = '2026-07-11';
    const b = '2026-07-12';
    expect(await srv.rows('steps')).toEqual([
      { date: a, count: 10448 },
      { date: b, count: 7499 },
    ]);
    expect(await srv.rows('energy')).toEqual([
      { date: a, kcal: 779 },
      { date: b, kcal: 625 },
    ]);
    expect(await srv.rows('heart')).toEqual([
      { date: a, min: 52, avg: 71.3, max: 148 },
      { date: b, min: 50, avg: 68.9, max: 131 },
    ]);
    expect(await srv.rows('resting')).toEqual([
      { date: a, bpm: 55 },
      { date: b, bpm: 54 },
    ]);
    expect(await srv.rows('sleep')).toEqual([
      { date: a, hours: 7.2, inBed: 7.9, core: 4.1, deep: 1.2, rem: 1.9, awake: 0.4 },
    ]);
    expect(await srv.rows('weight')).toEqual([{ date: a, kg: 77.29 }]);
    expect(await srv.rows('distance')).toEqual([
      { date: a, km: 6.63 },
      { date: b, km: 4.91 },
    ]);
    expect(await srv.rows('bp')).toEqual([{ date: b, systolic: 122, diastolic: 79 }]);
    expect(await srv.rows('oxygen')).toEqual([{ date: a, pct: 97.5 }]);
    expect(await srv.rows('vo2')).toEqual([{ date: a, vo2max: 44.1 }]);
    expect(await srv.rows('workouts')).toEqual([
      {
        date: a,
        trained: true,
        type: 'Outdoor Run',
        durationMin: 30,
        distanceKm: 5.63,
        calories: 350,
        avgHr: 150,
        maxHr: 172,
        elevationM: 37,
        startTime: '07:00',
      },
      {
        date: b,
        trained: true,
        type: 'Traditional Strength Training, upper body',
        durationMin: 45,
        calories: 210,
        startTime: '18:00',
      },
    ]);
    // the same push again stores nothing new
    const again = await post(
      srv,
      multipart([
        ['HealthMetrics', METRICS_CSV],
        ['Workouts', WORKOUTS_CSV],
      ]),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(again.body.samples.new).toBe(0);
  });

  it('a metrics file alone is read as text/csv or with no Content-Type it names; one with nothing to read is kept aside with advice', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const one = await post(srv, METRICS_CSV, 'text/csv');
    expect(one.body.ok, one.text).toBe(true);
    expect(await srv.rows('steps')).toHaveLength(2);
    // a script posting the file as it is, labelled as plain text
    const plain = await post(srv, `\ufeff${METRICS_CSV.replace('10448', '10500')}`, 'text/plain');
    expect(plain.body.ok, plain.text).toBe(true);
    expect((await srv.rows('steps'))[0]).toEqual({ date: '2026-07-11', count: 10500 });
    const other = await post(srv, 'Name,Value\nfoo,1\n', 'text/csv');
    expect(other.body.ok).toBe(false);
    expect(other.body.warning).toMatch(/It looks like CSV: set the automation's Export Format to JSON/);
  });

  it('files with their header line alone (nothing measured, no workout) are a push of nothing, not kept aside with advice', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const metricsHeader = METRICS_CSV.split('\r\n')[0];
    const workoutsHeader = WORKOUTS_CSV.split('\r\n')[0];
    const pushes: [Buffer | string, string][] = [
      [
        multipart([
          ['HealthMetrics', metricsHeader],
          ['Workouts', workoutsHeader],
        ]),
        `multipart/form-data; boundary=${BOUNDARY}`,
      ],
      [multipart([['Workouts', workoutsHeader]]), `multipart/form-data; boundary=${BOUNDARY}`],
      [`${metricsHeader}\r\n`, 'text/csv'],
      // a row whose cells are all empty: the day is there, nothing was measured
      [`Date/Time,Step Count (count),Weight & Body Mass (lb)\r\n2026-07-13 00:00:00,,\r\n`, 'text/csv'],
    ];
    for (const [body, type] of pushes) {
      const r = await post(srv, body, type);
      expect(r.status, r.text).toBe(200);
      expect(r.body.ok, r.text).toBe(true);
      expect(r.body.warning, r.text).toBeUndefined();
      expect(r.body.samples, r.text).toEqual({ received: 0, new: 0 });
    }
    expect(await srv.rows('steps')).toEqual([]);
    expect(await srv.rows('workouts')).toEqual([]);
    // nothing was kept aside as an unreadable body
    expect(
      existsSync(join(srv.home, 'ingest', 'quarantine'))
        ? readdirSync(join(srv.home, 'ingest', 'quarantine'))
        : [],
    ).toEqual([]);
    // a workouts file with one row beside an empty metrics file still fills its card
    const run = await post(
      srv,
      multipart([
        ['HealthMetrics', metricsHeader],
        ['Workouts', WORKOUTS_CSV],
      ]),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(run.body.ok, run.text).toBe(true);
    expect(await srv.rows('workouts')).toHaveLength(2);
  });

  it("a workout's Duration is its duration, also in a row without an end", async () => {
    srv = await startIngestServer({ cards: CARDS });
    const csv = [
      'Workout Type,Start,End,Duration,Active Energy (kcal)',
      // a session with pauses: 35 minutes from start to end, 33:05 of workout
      'Outdoor Run,2026-07-11 07:00:00,2026-07-11 07:35:00,0:33:05,350',
      'Pilates,2026-07-12 09:03,,00:58:41,219',
      // minutes and seconds
      'Walking,2026-07-13 08:00,,45:00,120',
    ].join('\r\n');
    const r = await post(srv, csv, 'text/csv');
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings).toBeUndefined();
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2026-07-11',
        trained: true,
        type: 'Outdoor Run',
        durationMin: 33.1,
        calories: 350,
        startTime: '07:00',
      },
      {
        date: '2026-07-12',
        trained: true,
        type: 'Pilates',
        durationMin: 58.7,
        calories: 219,
        startTime: '09:03',
      },
      {
        date: '2026-07-13',
        trained: true,
        type: 'Walking',
        durationMin: 45,
        calories: 120,
        startTime: '08:00',
      },
    ]);
    // a duration that is no clock nor number is said, the workout kept (timed by its start and end)
    const odd = await post(
      srv,
      ['Workout Type,Start,End,Duration', 'Yoga,2026-07-14 08:00,2026-07-14 08:30,half an hour'].join('\r\n'),
      'text/csv',
    );
    expect(odd.body.warnings).toEqual([
      'workouts: duration not a number, left out (1 point, e.g. "half an hour")',
    ]);
    expect((await srv.rows('workouts'))[3]).toMatchObject({ date: '2026-07-14', durationMin: 30 });
  });

  it('a column written twice is read from its first column, with a warning', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const metrics = [
      'Date/Time,Step Count (count),Resting Heart Rate (count/min),Step Count (count)',
      '2026-07-11 00:00:00,100,55,200',
      '2026-07-12 00:00:00,,54,300',
    ].join('\r\n');
    const workouts = [
      'Workout Type,Start,End,Active Energy (kcal),Active Energy (kJ)',
      'Outdoor Run,2026-07-11 07:00:00,2026-07-11 07:30:00,350,1500',
    ].join('\r\n');
    const r = await post(
      srv,
      multipart([
        ['HealthMetrics', metrics],
        ['Workouts', workouts],
      ]),
      `multipart/form-data; boundary=${BOUNDARY}`,
    );
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings).toEqual([
      'CSV column "Step Count (count)" (column 4) fills what column 2 ("Step Count (count)") fills; only the first is read',
      'CSV column "Active Energy (kJ)" (column 5) fills what column 4 ("Active Energy (kcal)") fills; only the first is read',
    ]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-07-11', count: 100 }]);
    expect(await srv.rows('resting')).toEqual([
      { date: '2026-07-11', bpm: 55 },
      { date: '2026-07-12', bpm: 54 },
    ]);
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2026-07-11',
        trained: true,
        type: 'Outdoor Run',
        durationMin: 30,
        calories: 350,
        startTime: '07:00',
      },
    ]);
  });

  it("the workouts file as the app's later versions head it (Type, Avg Heart Rate without a dot) is read the same", async () => {
    srv = await startIngestServer({ cards: CARDS });
    const csv = [
      'Type,Start,End,Duration,Total Energy (kJ),Active Energy (kJ),Max Heart Rate (bpm),Avg Heart Rate (bpm),Distance (km),Avg Speed (km/hr),Step Count (count),Step Cadence (spm),Swimming Stroke Count (count),Swim Stoke Cadence (spm),Flights Climbed (count),Elevation Ascended (m),Elevation Descended (m)',
      'Golf,2026-04-06 16:32,2026-04-06 18:35,02:02:45,4343,3436,141,105.78,3.59,1.76,5068,41.29,,,,,',
      'Pilates,2026-04-07 09:03,2026-04-07 10:02,00:58:41,1315,918.18,127,93.75,,,100,1.7,,,,,',
      'Hiking,2026-04-08 09:00,2026-04-08 12:00,03:00:00,,,,,12.5,,,,,,,640,610',
    ].join('\n');
    const r = await post(srv, multipart([['Workouts', csv]]), `multipart/form-data; boundary=${BOUNDARY}`);
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings).toBeUndefined();
    // energy: the active energy in kJ (3436 kJ is 821 kcal), never the total
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2026-04-06',
        trained: true,
        type: 'Golf',
        durationMin: 122.8,
        distanceKm: 3.59,
        calories: 821,
        avgHr: 106,
        maxHr: 141,
        startTime: '16:32',
      },
      {
        date: '2026-04-07',
        trained: true,
        type: 'Pilates',
        durationMin: 58.7,
        calories: 219,
        avgHr: 94,
        maxHr: 127,
        startTime: '09:03',
      },
      {
        date: '2026-04-08',
        trained: true,
        type: 'Hiking',
        durationMin: 180,
        distanceKm: 12.5,
        elevationM: 640,
        startTime: '09:00',
      },
    ]);
  });

  it("a column part named like an object's own member (constructor, toString) is a part Klebb does not know", async () => {
    srv = await startIngestServer({ cards: CARDS });
    const csv = [
      'Date/Time,Heart Rate [constructor] (count/min),Heart Rate [toString] (count/min),Step Count (count)',
      '2026-07-11 00:00:00,60,61,1000',
    ].join('\r\n');
    const r = await post(srv, csv, 'text/csv');
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings).toEqual([
      'CSV column "Heart Rate [constructor] (count/min)" is a part of Heart Rate Klebb does not know; not read',
      'CSV column "Heart Rate [toString] (count/min)" is a part of Heart Rate Klebb does not know; not read',
    ]);
    expect(await srv.rows('heart')).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-07-11', count: 1000 }]);
  });

  it('a CSV workout, timed to the minute, is the session the JSON export sent to the second, not a second one', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const json = await srv.push(
      JSON.stringify({
        data: {
          workouts: [
            {
              id: 'AB12',
              name: 'Outdoor Walk',
              start: '2026-05-16 12:47:23 -0700',
              end: '2026-05-16 13:07:41 -0700',
              duration: 1218,
              activeEnergyBurned: { qty: 66.3, units: 'kcal' },
            },
          ],
        },
      }),
    );
    expect(json.body.ok, json.text).toBe(true);
    const csv = [
      'Workout Type,Start,End,Duration,Active Energy (kcal)',
      'Outdoor Walk,2026-05-16 12:47,2026-05-16 13:07,00:20:18,66.28',
      // another walk that started in the same minute and ended earlier: a session of its own
      'Outdoor Walk,2026-05-16 12:47,2026-05-16 13:05,00:18:00,60.7',
    ].join('\r\n');
    const r = await post(srv, csv, 'text/csv');
    expect(r.body.ok, r.text).toBe(true);
    // 20.3 + 18 minutes, 66 + 61 kcal: the first walk once
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2026-05-16',
        trained: true,
        type: 'Outdoor Walk',
        durationMin: 38.3,
        calories: 127,
        startTime: '12:47',
      },
    ]);
  });
});
