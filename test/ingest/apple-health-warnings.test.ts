/**
 * What an Apple Health import says about the parts of the file it could not use, through the real
 * upload route: one warning line per metric and reason over the whole file (however many batches
 * the file is read in), the most serious first, and a file cut short said plainly and first.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

const Q = 'HKQuantityTypeIdentifier';

/** One quantity `<Record>` on 1 May 2026 (+0200), `i` minutes after 06:00. */
function rec(type: string, unit: string, value: string, i: number, source = 'Watch'): string {
  const t = new Date(Date.UTC(2026, 4, 1, 4, 0) + i * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  // the local time written with +0200 (UTC + 2 h)
  const l = new Date(t.getTime() + 2 * 3_600_000);
  const at = `${l.getUTCFullYear()}-${pad(l.getUTCMonth() + 1)}-${pad(l.getUTCDate())} ${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:00 +0200`;
  return ` <Record type="${Q}${type}" sourceName="${source}" sourceVersion="10.0" unit="${unit}" creationDate="${at}" startDate="${at}" endDate="${at}" value="${value}"/>`;
}

function exportXml(body: string[], close = true): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ' <ExportDate value="2026-05-02 10:00:00 +0200"/>',
    ...body,
    close ? '</HealthData>' : '',
  ].join('\n');
}

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('Apple Health import warnings', () => {
  it('one line per metric and reason over the whole file, the costliest first', async () => {
    srv = await startIngestServer({ cards: [['energy', 'active_energy']] });
    // 6000 energy records whose comma may be a decimal or a thousands mark (~1.3 MB: read in several batches), 3
    // negative step counts, 2 records of a type with no metric, 6 readable energy records
    const body: string[] = [];
    for (let i = 0; i < 6000; i++) body.push(rec('ActiveEnergyBurned', 'kcal', '1,234', i));
    for (let i = 0; i < 3; i++) body.push(rec('StepCount', 'count', String(-10 - i), i, 'iPhone'));
    for (let i = 0; i < 2; i++) body.push(rec('MadeUpThing', 'count', '3', i));
    for (let i = 0; i < 6; i++) body.push(rec('ActiveEnergyBurned', 'kcal', '10', 7000 + i, 'iPhone'));
    const xml = exportXml(body);
    expect(xml.length).toBeGreaterThan(1_000_000);
    const r = await srv.importExport(xml);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, truncated: false, records: 6011, skipped: 6003 });
    const warnings = r.body.warnings as string[];
    expect(warnings).toEqual([
      expect.stringMatching(
        /^active_energy: number whose comma or point may be a decimal or a thousands mark \(6000 points, e\.g\. /,
      ),
      'step_count: negative value (3 points, e.g. -10)',
      '2 record(s) of types with no catalogue metric were not stored: HKQuantityTypeIdentifierMadeUpThing (2)',
    ]);
    // the readable ones fill the card: 6 × 10 kcal on 6 May (7000 min after 1 May 06:00 +0200)
    expect(await srv.rows('energy')).toEqual([{ date: '2026-05-06', kcal: 60 }]);
  });

  it('a file cut short is said first, plainly; what was read is kept', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body: string[] = [];
    for (let i = 0; i < 40; i++) body.push(rec('StepCount', 'count', '100', i, 'iPhone'));
    const whole = exportXml(body);
    // cut in the middle of the 31st record, as a download that stopped
    const cut = whole.slice(0, whole.indexOf(body[30]) + 60);
    const r = await srv.importExport(cut);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, truncated: true, records: 30 });
    expect(r.body.xmlErrors).toBeGreaterThan(0);
    expect(r.body.warnings[0]).toMatch(/^the file was cut short: .*most likely incomplete.* 30 record\(s\)/);
    expect(r.body.warnings.slice(1).every((w: string) => !/cut short/.test(w))).toBe(true);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-01', count: 3000 }]);

    // the whole file afterwards: not truncated, only the rest is new
    const again = await srv.importExport(whole);
    expect(again.body).toMatchObject({ ok: true, truncated: false, xmlErrors: 0, newSamples: 10 });
    expect(again.body.warnings).toEqual([]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-01', count: 4000 }]);
  });

  it('a cut after the last record, before </HealthData>, is cut short too', async () => {
    srv = await startIngestServer();
    const r = await srv.importExport(exportXml([rec('StepCount', 'count', '5', 0)], false));
    expect(r.body).toMatchObject({ ok: true, truncated: true, records: 1 });
    expect(r.body.warnings[0]).toMatch(/^the file was cut short/);
  });
});

describe('Apple Health records whose value Klebb does not know', () => {
  it('are left out and said, one line per value, instead of vanishing without a word', async () => {
    srv = await startIngestServer({
      cards: [
        ['sleep', 'sleep_analysis'],
        ['stand', 'apple_stand_hour'],
      ],
    });
    const category = (type: string, start: string, end: string, value: string) =>
      ` <Record type="HKCategoryTypeIdentifier${type}" sourceName="Watch" startDate="${start} +0200" endDate="${end} +0200" value="${value}"/>`;
    const r = await srv.importExport(
      exportXml([
        // a sleep stage a later iOS may add, twice, and a stage written as its number
        category(
          'SleepAnalysis',
          '2026-05-01 23:00:00',
          '2026-05-02 01:00:00',
          'HKCategoryValueSleepAnalysisAsleepLight',
        ),
        category(
          'SleepAnalysis',
          '2026-05-02 01:30:00',
          '2026-05-02 02:00:00',
          'HKCategoryValueSleepAnalysisAsleepLight',
        ),
        category('SleepAnalysis', '2026-05-02 02:00:00', '2026-05-02 03:00:00', '3'),
        category(
          'SleepAnalysis',
          '2026-05-02 03:00:00',
          '2026-05-02 06:30:00',
          'HKCategoryValueSleepAnalysisAsleepCore',
        ),
        // an idle stand hour is no reading; a value that is neither stood nor idle is said
        category(
          'AppleStandHour',
          '2026-05-02 09:00:00',
          '2026-05-02 10:00:00',
          'HKCategoryValueAppleStandHourIdle',
        ),
        category(
          'AppleStandHour',
          '2026-05-02 10:00:00',
          '2026-05-02 11:00:00',
          'HKCategoryValueAppleStandHourStood',
        ),
        category('AppleStandHour', '2026-05-02 11:00:00', '2026-05-02 12:00:00', ''),
      ]),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings).toEqual([
      expect.stringMatching(
        /^sleep_analysis: unknown sleep value "HKCategoryValueSleepAnalysisAsleepLight" \(2 points, e\.g\. /,
      ),
      expect.stringMatching(/^sleep_analysis: unknown sleep value "3" \(1 point, /),
      expect.stringMatching(/^apple_stand_hour: unknown stand hour value "" \(1 point, /),
    ]);
    // what was known is read: 3.5 h of core sleep, one hour stood
    expect(await srv.rows('sleep')).toEqual([expect.objectContaining({ date: '2026-05-02', core: 3.5 })]);
    expect(await srv.rows('stand')).toEqual([{ date: '2026-05-02', hours: 1 }]);
  });
});

describe('Apple Health import of a damaged file', () => {
  it('a bare & in an attribute is read as itself; the records after it are read too', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body: string[] = [];
    for (let i = 0; i < 20; i++) body.push(rec('StepCount', 'count', '100', i, 'iPhone'));
    // a third-party source name written without escaping its "&", twice
    body[3] = rec('StepCount', 'count', '100', 3, 'Sun & Moon Steps');
    body[9] = rec('StepCount', 'count', '100', 9, 'R&D');
    const r = await srv.importExport(exportXml(body));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      truncated: false,
      damagedAtLine: null,
      records: 20,
      newSamples: 20,
      xmlErrors: 0,
    });
    expect(r.body.warnings).toEqual([
      "2 '&' character(s) not written as '&amp;' (not valid XML) were read as '&'",
    ]);
    // the card counts the day's main source (the iPhone's 18 records), as for any export
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-01', count: 1800 }]);
  });

  it('a tag that never ends stops the reading there, says where, and keeps what came before', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body: string[] = [];
    for (let i = 0; i < 30; i++) body.push(rec('StepCount', 'count', '100', i, 'iPhone'));
    // line 34 of the file (3 lines of head): a value whose closing quote is missing, then 6 MB of
    // bytes without a quote or a tag (a damaged copy), then records again
    body.push(`<Record type="${Q}StepCount" sourceName="iPhone" value="5${'9'.repeat(6 * 1024 * 1024)}`);
    for (let i = 40; i < 50; i++) body.push(rec('StepCount', 'count', '100', i, 'iPhone'));
    const r = await srv.importExport(exportXml(body));
    expect(r.status).toBe(200);
    // line 33 holds the last record read
    expect(r.body).toMatchObject({ ok: true, truncated: false, damagedAtLine: 33, records: 30 });
    expect(r.body.warnings[0]).toMatch(
      /^the file is damaged after line 33: what follows is not XML, or a tag there never ends .* The 30 record\(s\) before it were imported/,
    );
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-01', count: 3000 }]);
  });

  it('bytes that are not XML stop the reading there; the records before them are kept', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body: string[] = [];
    for (let i = 0; i < 30; i++) body.push(rec('StepCount', 'count', '100', i, 'iPhone'));
    const head = Buffer.from(`${exportXml(body, false)}\n`);
    // 3 MB of random bytes (a copy gone wrong), then more records and the end of the file
    const junk = randomBytes(3_000_000);
    const tail = Buffer.from(`\n${rec('StepCount', 'count', '100', 40, 'iPhone')}\n</HealthData>\n`);
    const r = await srv.importExport(Buffer.concat([head, junk, tail]));
    expect(r.status).toBe(200);
    // the line of the last tag read: 33, or a little into the junk when saxes read a tag in it
    expect(r.body).toMatchObject({ ok: true, truncated: false, records: 30 });
    expect(r.body.damagedAtLine).toBeGreaterThanOrEqual(33);
    expect(r.body.warnings[0]).toMatch(/^the file is damaged after line \d+: what follows is not XML/);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-01', count: 3000 }]);
  });
});

describe('Health Auto Export push warnings', () => {
  it('a push read in parts (over 4 MB) gives one line per metric and reason', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    // 90 000 points whose comma may be a decimal or a thousands mark (~5 MB: read a thousand points at a time), then one readable
    const data: Record<string, unknown>[] = [];
    for (let i = 0; i < 90_000; i++)
      data.push({ date: '2025-05-01 09:00:00 +0200', qty: '1,234', source: `p${i}` });
    data.push({ date: '2025-05-01 10:00:00 +0200', qty: 1200 });
    const body = JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } });
    expect(body.length).toBeGreaterThan(4_000_000);
    const r = await srv.push(body);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      expect.stringMatching(
        /^step_count: number whose comma or point may be a decimal or a thousands mark \(90000 points, e\.g\. /,
      ),
    ]);
    expect(await srv.rows('steps')).toEqual([{ date: '2025-05-01', count: 1200 }]);
  });
});
