/**
 * The `cycleTracking` section of a Health Auto Export push, through the real webhook: a menstrual
 * flow (`{start, end, name: "Menstrual Flow", value: "Medium"}`, also with `date`, also named
 * as iOS 18 does, `Vaginal Bleeding`) is a day logged on `menstrual_flow`; a flow of `None` is
 * not; spotting, cervical mucus, ovulation, pregnancy and progesterone tests and sexual activity
 * fill their metrics; a record of another kind (lactation) and a value Klebb does not know are
 * each left out with a warning naming them; a re-send adds nothing, and a body streamed for its
 * size reads them the same. The same records in an Apple Health export, named as HealthKit names
 * them, fill the same metrics.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const cycle = [
  {
    start: '2026-05-10 00:00:00 +0200',
    end: '2026-05-10 23:59:59 +0200',
    name: 'Menstrual Flow',
    value: 'Medium',
  },
  {
    start: '2026-05-11 00:00:00 +0200',
    end: '2026-05-11 23:59:59 +0200',
    name: 'Menstrual Flow',
    value: 'Light',
  },
  { date: '2026-05-12 00:00:00 +0200', name: 'Vaginal Bleeding', value: 'Heavy', source: 'Health' },
  {
    start: '2026-05-13 00:00:00 +0200',
    end: '2026-05-13 23:59:59 +0200',
    name: 'Menstrual Flow',
    value: 'None',
  },
  { start: '2026-05-14 00:00:00 +0200', name: 'Menstrual Flow', value: 'Spotting-ish' },
  { start: '2026-05-24 00:00:00 +0200', name: 'Ovulation Test Result', value: 'Positive' },
  { start: '2026-05-23 08:00:00 +0200', name: 'Ovulation Test Result', value: 'Negative' },
  { start: '2026-05-25 08:00:00 +0200', name: 'Ovulation Test Result', value: 'Estrogen Surge' },
  {
    start: '2026-05-25 20:00:00 +0200',
    name: 'Ovulation Test Result',
    value: 'HKCategoryValueOvulationTestResultLuteinizingHormoneSurge',
  },
  { start: '2026-05-20 00:00:00 +0200', end: '2026-05-20 23:59:59 +0200', name: 'Intermenstrual Bleeding' },
  { start: '2026-05-22 07:00:00 +0200', name: 'Cervical Mucus Quality', value: 'Creamy' },
  { start: '2026-05-22 19:00:00 +0200', name: 'Cervical Mucus Quality', value: 'Egg White' },
  { start: '2026-05-23 07:00:00 +0200', name: 'Cervical Mucus Quality', value: 'Gooey' },
  { start: '2026-06-08 07:00:00 +0200', name: 'Pregnancy Test Result', value: 'Negative' },
  { start: '2026-05-26 07:00:00 +0200', name: 'Progesterone Test Result', value: 'Indeterminate' },
  { start: '2026-05-21 22:00:00 +0200', name: 'Sexual Activity' },
  { start: '2026-05-27 00:00:00 +0200', name: 'Lactation', value: 'Not Applicable' },
];

/** Each metric the section fills, with the card following it and its rows. */
const OTHER_CARDS: [string, string][] = [
  ['spotting', 'intermenstrual_bleeding'],
  ['mucus', 'cervical_mucus_quality'],
  ['ovulation', 'ovulation_test'],
  ['pregnancy', 'pregnancy_test'],
  ['progesterone', 'progesterone_test'],
  ['sex', 'sexual_activity'],
];
const OTHER_ROWS: Record<string, Record<string, unknown>[]> = {
  spotting: [{ date: '2026-05-20', logged: true }],
  mucus: [{ date: '2026-05-22', quality: 5 }],
  ovulation: [
    { date: '2026-05-23', negative: 1 },
    { date: '2026-05-24', positive: 1 },
    { date: '2026-05-25', positive: 1, estrogenSurge: 1 },
  ],
  pregnancy: [{ date: '2026-06-08', negative: 1 }],
  progesterone: [{ date: '2026-05-26', indeterminate: 1 }],
  sex: [{ date: '2026-05-21', logged: true }],
};

const ROWS = [
  { date: '2026-05-10', logged: true },
  { date: '2026-05-11', logged: true },
  { date: '2026-05-12', logged: true },
];

const WARNINGS = [
  'cervical_mucus_quality: unknown cervical mucus, left out (1 point, e.g. "Gooey")',
  'cycleTracking: kind of record not read, left out (1 point, e.g. "Lactation")',
  'menstrual_flow: no menstrual flow, not counted (1 point, e.g. "None")',
  'menstrual_flow: unknown menstrual flow, left out (1 point, e.g. "Spotting-ish")',
];

describe('cycle tracking', () => {
  it('a menstrual flow is a day logged; no flow, unknown levels and other records are named', async () => {
    const s = await startIngestServer({ cards: [['flow', 'menstrual_flow'], ...OTHER_CARDS] });
    srv = s;
    const body = JSON.stringify({ data: { metrics: [], workouts: [], cycleTracking: cycle } });
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect([...r.body.warnings].sort()).toEqual(WARNINGS);
    expect(r.body.samples).toEqual({ received: 13, new: 13 });
    expect(await s.rows('flow')).toEqual(ROWS);
    for (const [card] of OTHER_CARDS) expect(await s.rows(card), card).toEqual(OTHER_ROWS[card]);
    expect((await s.push(body)).body.samples).toEqual({ received: 13, new: 0 });
    expect(await s.rows('flow')).toEqual(ROWS);
    expect(await s.rows('ovulation')).toEqual(OTHER_ROWS.ovulation);
  });

  it('read the same from a body streamed for its size', async () => {
    const s = await startIngestServer({ cards: [['flow', 'menstrual_flow'], ...OTHER_CARDS] });
    srv = s;
    const steps = Array.from({ length: 70_000 }, (_, i) => ({
      date: `2026-05-19 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0100`,
      qty: 1,
      source: `Watch ${Math.floor(i / 86400)}`,
    }));
    const body = JSON.stringify({
      data: { cycleTracking: cycle, metrics: [{ name: 'step_count', units: 'count', data: steps }] },
    });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect([...r.body.warnings].sort()).toEqual(WARNINGS);
    expect(await s.rows('flow')).toEqual(ROWS);
    for (const [card] of OTHER_CARDS) expect(await s.rows(card), card).toEqual(OTHER_ROWS[card]);
  });

  it('from an Apple Health export, each kind as HealthKit names it', async () => {
    const s = await startIngestServer({ cards: OTHER_CARDS });
    srv = s;
    const rec = (type: string, at: string, value: string) =>
      ` <Record type="HKCategoryTypeIdentifier${type}" sourceName="Health" creationDate="${at}" startDate="${at}" endDate="${at}" value="${value}"/>`;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="en_US">',
      ' <ExportDate value="2026-06-10 09:00:00 +0200"/>',
      rec('IntermenstrualBleeding', '2026-05-20 00:00:00 +0200', 'HKCategoryValueNotApplicable'),
      rec('CervicalMucusQuality', '2026-05-22 07:00:00 +0200', 'HKCategoryValueCervicalMucusQualityCreamy'),
      rec('CervicalMucusQuality', '2026-05-22 19:00:00 +0200', 'HKCategoryValueCervicalMucusQualityEggWhite'),
      rec('OvulationTestResult', '2026-05-23 08:00:00 +0200', 'HKCategoryValueOvulationTestResultNegative'),
      rec('OvulationTestResult', '2026-05-24 00:00:00 +0200', 'HKCategoryValueOvulationTestResultPositive'),
      rec(
        'OvulationTestResult',
        '2026-05-25 08:00:00 +0200',
        'HKCategoryValueOvulationTestResultEstrogenSurge',
      ),
      rec(
        'OvulationTestResult',
        '2026-05-25 20:00:00 +0200',
        'HKCategoryValueOvulationTestResultLuteinizingHormoneSurge',
      ),
      rec('PregnancyTestResult', '2026-06-08 07:00:00 +0200', 'HKCategoryValuePregnancyTestResultNegative'),
      rec(
        'ProgesteroneTestResult',
        '2026-05-26 07:00:00 +0200',
        'HKCategoryValueProgesteroneTestResultIndeterminate',
      ),
      rec('SexualActivity', '2026-05-21 22:00:00 +0200', 'HKCategoryValueNotApplicable'),
      rec('OvulationTestResult', '2026-05-27 08:00:00 +0200', '7'),
      '</HealthData>',
    ].join('\n');
    const r = await s.importExport(xml);
    expect(r.status, r.text).toBe(200);
    expect(r.body.unmappedTypes).toEqual({});
    expect(r.body.warnings).toEqual([
      'ovulation_test: unknown ovulation test value "7" (1 point, e.g. {"startDate":"2026-05-27 08:00:00 +0200","endDate":"2026-05-27 08:00:00 +0200"})',
    ]);
    for (const [card] of OTHER_CARDS) expect(await s.rows(card), card).toEqual(OTHER_ROWS[card]);
  });
});
