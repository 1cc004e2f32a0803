/**
 * Apple Health export.xml: the three real snippets of the cases folder (real-data/apple-health/) import through the upload endpoint and through the
 * script into the same samples store, and fill subscribed cards. Values computed by hand from the
 * files are written beside each check.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main as importMain, parseArgs } from '../../scripts/import-apple-health.js';
import { loadConfig } from '../../src/config.js';
import { openInstance } from '../../src/instance.js';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';
import { startServer } from '../helpers/server.js';
import { haeCard, type IngestServer, startIngestServer } from '../ingest/helpers.js';
import { APPLE_FILES, appleDir } from './apple-files.js';

const TDDA = 'tdda-applehealthdata_export6s3sample_v3_2016.xml';
const DOGSHEEP = 'dogsheep-healthkit-to-sqlite_export_2019.xml';
const RGOSDIN = 'rgosdin-docs_export-v8_2019_trimmed.xml';

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['distance', 'walking_running_distance'],
  ['sleep', 'sleep_analysis'],
  ['heart', 'heart_rate'],
  ['bmi', 'body_mass_index'],
  ['mindful', 'mindful_minutes'],
  ['workouts', 'workouts'],
];

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function upload(s: IngestServer, file: string, headers: Record<string, string> = {}) {
  return s.api('/api/apple-health/import', {
    method: 'POST',
    body: fs.readFileSync(path.join(appleDir, file)),
    headers: { 'content-type': 'application/xml', ...headers },
  });
}

describe('the upload endpoint', () => {
  it.each(APPLE_FILES)('%s imports', async (file) => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await upload(srv, file);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.samples).toBeGreaterThan(0);
    expect(r.body.newSamples).toBe(r.body.samples);
    expect(r.body.xmlErrors).toBe(0);
    // imported again: every sample is already stored, no card changes
    const again = await upload(srv, file);
    expect(again.status).toBe(200);
    expect(again.body.newSamples).toBe(0);
    for (const n of Object.values(again.body.ingested)) expect(n).toBe(0);
    // the upload was streamed to disk and removed afterwards
    expect(fs.readdirSync(srv.inst.hae.dirs.uploads)).toEqual([]);
  });

  it(`${TDDA}: steps summed per local day, distance, a 2016 workout`, async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await upload(srv, TDDA);
    // 15 <Record>s (10 StepCount, 5 DistanceWalkingRunning), 1 <Workout>; ActivitySummary is not a record
    expect(r.body).toMatchObject({
      records: 15,
      workouts: 1,
      samples: 16,
      exportDate: '2016-04-15 07:27:26 +0100',
    });
    expect(r.body.ingested).toMatchObject({ steps: 1, distance: 1, workouts: 1 });
    // 2014-09-13 +0100: 329 + 283 + 426 + 61 + 10 + 200 + 390 + 320 + 216 + 282 = 2517 steps
    expect(await srv.rows('steps')).toEqual([{ date: '2014-09-13', count: 2517 }]);
    // 2014-09-20: 0.00288 + 0.00284 + 0.00142 + 0.00639 + 0.0059 = 0.01943 km → 0.02
    expect(await srv.rows('distance')).toEqual([{ date: '2014-09-20', km: 0.02 }]);
    // Other, 31.7368 min → 31.7; distance 0 km → absent; 139.317 kcal → 139; started 10:40 +0100
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2016-04-02',
        trained: true,
        type: 'Other',
        durationMin: 31.7,
        calories: 139,
        startTime: '10:40',
      },
    ]);
  });

  it(`${DOGSHEEP}: heart rate, BMI from Withings (metadata keys with spaces), a running workout in miles`, async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await upload(srv, DOGSHEEP);
    expect(r.body).toMatchObject({ records: 2, workouts: 1, samples: 3 });
    // HeartRate value 72 count/min at 2018-09-10 02:28:55 -0700 → min = avg = max = 72
    expect(await srv.rows('heart')).toEqual([{ date: '2018-09-10', min: 72, avg: 72, max: 72 }]);
    // BodyMassIndex 22.5312 (unit "count") → 22.5 on 2016-04-18 (local, -0700)
    expect(await srv.rows('bmi')).toEqual([{ date: '2016-04-18', bmi: 22.5 }]);
    // Running 5.19412 min → 5.2; 0.4971749504535062 mi × 1.609344 = 0.80013 km → 0.8; 48.745 kcal → 49.
    // Its HKTimeZone is America/Los_Angeles: 07:25:41 -0700 (the offset the export writes, that of
    // the July 2019 export) is 14:25:41 UTC, 06:25 on Los Angeles' clock on 14 November (PST, -0800)
    expect(await srv.rows('workouts')).toEqual([
      {
        date: '2016-11-14',
        trained: true,
        type: 'Running',
        durationMin: 5.2,
        distanceKm: 0.8,
        calories: 49,
        startTime: '06:25',
      },
    ]);
  });

  it(`${RGOSDIN}: steps over two days, sleep segments from two sources, a mindful session; unmapped types counted`, async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await upload(srv, RGOSDIN);
    // 12 StepCount + 8 DistanceWalkingRunning + 4 FlightsClimbed + NumberOfTimesFallen + UVExposure + 4 sleep + 1 mindful
    expect(r.body.records).toBe(31);
    expect(r.body.samples).toBe(31);
    expect(r.body.unmappedTypes).toEqual({});
    // 2019-05-14 -0400: 47 + 8 + 289 + 417 + 377 + 361 + 281 + 123 + 42 + 25 = 1970; 2019-05-15: 62 + 3 = 65
    expect(await srv.rows('steps')).toEqual([
      { date: '2019-05-14', count: 1970 },
      { date: '2019-05-15', count: 65 },
    ]);
    // sleep: Clock "InBed" 06-15 08:13:44 → 09:00:43 (46 min 59 s = 0.7831 h); Health "Asleep"
    // 06-15 22:21 → 06-16 08:21 (10 h) and Clock "InBed" 06-16 08:55:52 → 09:14:49 (0.3158 h) both
    // end on 06-16: in bed is the Health night's 10 h (a night is in bed at least while asleep, and
    // Health records no in-bed of its own) plus Clock's 0.3158 h = 10.3158 → 10.32, never less than
    // the 10 h asleep (sleep-nights.ts rule 4); Clock "InBed" 06-17 07:49:48 → 09:11:13 (1.3569 h)
    expect(await srv.rows('sleep')).toEqual([
      { date: '2019-06-15', inBed: 0.78, bedTime: '08:13', wakeTime: '09:00', source: 'Clock' },
      {
        date: '2019-06-16',
        hours: 10,
        asleep: 10,
        inBed: 10.32,
        bedTime: '22:21',
        wakeTime: '08:21',
        source: 'Health',
      },
      { date: '2019-06-17', inBed: 1.36, bedTime: '07:49', wakeTime: '09:11', source: 'Clock' },
    ]);
    // MindfulSession 2019-06-16 03:46 → 06:46 = 180 minutes
    expect(await srv.rows('mindful')).toEqual([{ date: '2019-06-16', minutes: 180 }]);
  });

  it('needs the normal auth, refuses a damaged zip and a file that is not an export', async () => {
    srv = await startIngestServer({ env: { AGENT_API_TOKEN: 'agent-secret' } });
    const viaProxy = await upload(srv, TDDA, { 'x-forwarded-for': '198.51.100.7' });
    expect(viaProxy.status).toBe(401);
    expect(
      (
        await srv.api('/api/apple-health/import', {
          method: 'POST',
          body: fs.readFileSync(path.join(appleDir, TDDA)),
          token: 'agent-secret',
          headers: { 'x-forwarded-for': '198.51.100.7', 'content-type': 'application/octet-stream' },
        })
      ).status,
    ).toBe(200);
    const zip = await srv.api('/api/apple-health/import', {
      method: 'POST',
      body: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]),
    });
    // the export zip itself is read (test/ingest/apple-health-upload-shapes.test.ts); this one is damaged
    expect(zip.status).toBe(422);
    expect(zip.body.code).toBe('ZIP_NOT_A_ZIP');
    const notXml = await srv.api('/api/apple-health/import', { method: 'POST', body: '{"data": {}}' });
    expect(notXml.status).toBe(422);
    expect(notXml.body.code).toBe('NOT_AN_EXPORT');
    expect((await srv.api('/api/apple-health/import', { method: 'POST' })).status).toBe(400);
  });

  it('goes on after XML problems (a broken attribute, a truncated file) and imports the well-formed records', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const text = fs.readFileSync(path.join(appleDir, TDDA), 'utf8');
    // an attribute name with a space (openradar 821) in the first record, and the file cut after the 5th record
    const lines = text.split('\n');
    const firstRecord = lines.findIndex((l) => l.includes('<Record'));
    lines[firstRecord] = lines[firstRecord].replace(
      'sourceName=',
      'Withings User Identifier="1" sourceName=',
    );
    const broken = lines.slice(0, firstRecord + 5).join('\n');
    const r = await srv.api('/api/apple-health/import', { method: 'POST', body: broken });
    expect(r.status).toBe(200);
    expect(r.body.xmlErrors).toBeGreaterThan(0);
    expect(r.body.truncated).toBe(true);
    expect(r.body.warnings[0]).toMatch(/^the file was cut short/);
    expect(r.body.warnings[1]).toMatch(/XML problem/);
    expect(r.body.records).toBeGreaterThanOrEqual(4);
    expect((await srv.rows('steps'))[0].date).toBe('2014-09-13');
  });
});

describe('the script', () => {
  it('parses its arguments', () => {
    expect(parseArgs(['export.xml', '--home', '/tmp/h'])).toEqual({
      file: path.resolve('export.xml'),
      home: '/tmp/h',
    });
    expect(parseArgs(['--home=/tmp/h', 'x.xml'])).toEqual({ file: path.resolve('x.xml'), home: '/tmp/h' });
    expect(() => parseArgs([])).toThrow(/usage/);
    expect(() => parseArgs(['a.xml', 'b.xml'])).toThrow(/one file/);
  });

  it('imports every snippet into a home (in process), then a card created on the server is filled from them', async () => {
    const box = sandboxHome();
    try {
      for (const file of APPLE_FILES) {
        const out: string[] = [];
        const code = await importMain([path.join(appleDir, file), '--home', box.home], {
          out: (s) => out.push(s),
          err: () => {},
        });
        expect(code, file).toBe(0);
        const summary = JSON.parse(out.join(''));
        expect(summary.ok).toBe(true);
        expect(summary.newSamples).toBeGreaterThan(0);
      }
      const s = await startServer({ watch: false, home: box.home });
      try {
        expect((await s.api('/api/manifests', { json: haeCard('steps', 'step_count') })).status).toBe(201);
        const rows = (await s.api('/api/manifests/steps/data')).body.data;
        // tdda 2014-09-13 (2517) and rgosdin 2019-05-14/15 (1970, 65)
        expect(rows).toEqual([
          { date: '2014-09-13', count: 2517 },
          { date: '2019-05-14', count: 1970 },
          { date: '2019-05-15', count: 65 },
        ]);
      } finally {
        await s.close({ keepHome: true });
      }
    } finally {
      box.remove();
    }
  });

  it('runs as `npm run import:apple-health -- <export.xml> --home DIR` (built script) and fills subscribed cards', async () => {
    const script = path.join(repoRoot, 'dist/scripts/import-apple-health.js');
    if (!fs.existsSync(script)) {
      throw new Error(
        `${script} is missing: build first with \`npm run build\` (npm test runs it as pretest)`,
      );
    }
    const box = sandboxHome();
    try {
      const inst = await openInstance(loadConfig({ HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' }), {
        watch: false,
      });
      const { createCard } = await import('../../src/cards/card-crud.js');
      createCard(inst.cards, haeCard('steps', 'step_count'), 'test');
      await inst.close();
      const run = spawnSync(
        'npm',
        ['run', '--silent', 'import:apple-health', '--', path.join(appleDir, RGOSDIN), '--home', box.home],
        {
          cwd: repoRoot,
          encoding: 'utf8',
          env: { ...process.env, HEALTH_HOME: '' },
        },
      );
      expect(run.status, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout);
      expect(summary).toMatchObject({
        ok: true,
        home: box.home,
        records: 31,
        samples: 31,
        ingested: { steps: 2 },
      });
      const again = await openInstance(loadConfig({ HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' }), {
        watch: false,
      });
      try {
        expect(again.cards.store.read('steps')).toEqual([
          { date: '2019-05-14', count: 1970 },
          { date: '2019-05-15', count: 65 },
        ]);
      } finally {
        await again.close();
      }
      const bad = spawnSync(process.execPath, [script], { cwd: repoRoot, encoding: 'utf8' });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/usage: npm run import:apple-health/);
    } finally {
      box.remove();
    }
  });
});
