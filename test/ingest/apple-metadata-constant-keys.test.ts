/**
 * An export.xml whose metadata keys are written as HealthKit's constants' names
 * (`HKMetadataKeyTimeZone`, `HKMetadataKeyInsulinDeliveryReason`, `HKMetadataKeyElevationAscended`),
 * as apps and converters that write the export format themselves and files edited by hand write
 * them, reads as the Health app's spelling (`HKTimeZone` ...) does: a night slept in Tokyo by a
 * phone living in New York on Tokyo's morning, a basal and a bolus at one instant as two doses, a
 * workout's ascent and zone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

type Spelling = 'app' | 'constant';
const key = (name: string, spelling: Spelling) => (spelling === 'app' ? `HK${name}` : `HKMetadataKey${name}`);

function entry(name: string, value: string, spelling: Spelling, indent = '  '): string {
  return `${indent}<MetadataEntry key="${key(name, spelling)}" value="${value}"/>`;
}

/** What a phone living in New York (-0400) exports, its metadata keys in `spelling`. */
function exportXml(spelling: Spelling): string {
  const sleep = (start: string, end: string, stage: string) => [
    ` <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="${start}" endDate="${end}" value="HKCategoryValueSleepAnalysis${stage}">`,
    entry('TimeZone', 'Asia/Tokyo', spelling),
    ' </Record>',
  ];
  const dose = (value: string, reason: string) => [
    ` <Record type="HKQuantityTypeIdentifierInsulinDelivery" sourceName="Loop" unit="IU" startDate="2024-06-16 08:00:00 -0400" endDate="2024-06-16 08:00:00 -0400" value="${value}">`,
    entry('InsulinDeliveryReason', reason, spelling),
    ' </Record>',
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<HealthData locale="en_US">',
    ' <ExportDate value="2024-06-20 09:00:00 -0400"/>',
    // 23:00 on 10 June to 07:00 on 11 June in Tokyo
    ...sleep('2024-06-10 10:00:00 -0400', '2024-06-10 14:00:00 -0400', 'AsleepCore'),
    ...sleep('2024-06-10 14:00:00 -0400', '2024-06-10 18:00:00 -0400', 'AsleepDeep'),
    ...dose('0.5', '1'),
    ...dose('3', '2'),
    // 00:30 on 13 June in Tokyo, 120 m up
    ' <Workout workoutActivityType="HKWorkoutActivityTypeHiking" duration="90" durationUnit="min" sourceName="Watch" startDate="2024-06-12 11:30:00 -0400" endDate="2024-06-12 13:00:00 -0400">',
    entry('TimeZone', 'Asia/Tokyo', spelling),
    entry('ElevationAscended', '12000 cm', spelling),
    ' </Workout>',
    '</HealthData>',
  ].join('\n');
}

const CARDS: [string, string][] = [
  ['sleep', 'sleep_analysis'],
  ['insulin', 'insulin_delivery'],
  ['workouts', 'workouts'],
];

async function rowsOf(spelling: Spelling): Promise<Record<string, unknown>> {
  const s = await startIngestServer({ cards: CARDS });
  srv = s;
  const r = await s.importExport(exportXml(spelling));
  expect(r.status, r.text).toBe(200);
  const rows = {
    sleep: await s.rows('sleep'),
    insulin: await s.rows('insulin'),
    workouts: await s.rows('workouts'),
  };
  await s.close();
  srv = undefined;
  return rows;
}

describe("metadata keys written as HealthKit's constants", () => {
  it("read as the Health app's keys", async () => {
    const constant = await rowsOf('constant');
    expect(constant).toEqual({
      sleep: [
        {
          date: '2024-06-11',
          hours: 8,
          core: 4,
          deep: 4,
          bedTime: '23:00',
          wakeTime: '07:00',
          source: 'Watch',
        },
      ],
      insulin: [{ date: '2024-06-16', iu: 3.5 }],
      workouts: [expect.objectContaining({ date: '2024-06-13', startTime: '00:30', elevationM: 120 })],
    });
    expect(await rowsOf('app')).toEqual(constant);
  });
});
