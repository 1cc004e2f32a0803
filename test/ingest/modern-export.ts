/**
 * An export.xml of a newer iPhone, with everything in it a real one holds and the faults real ones
 * were found with: the DTD at the top as iOS 16 wrote it (declarations never closed, a stray
 * `>`), `<ExportDate>` and `<Me>`, records with their attributes in another order, stamps at
 * offsets of half and three quarters of an hour, a comma decimal, units as Apple spells them
 * (`count/min`, `%`, `mg/dL`, `mmol<180.15…>/L`, `degF`, `ºC`, `lb`), `<MetadataEntry>` children
 * and nested heart-rate-variability beat lists, correlations (blood pressure, food) whose records
 * are also at top level, sleep stages of watchOS 9 and the older "Asleep", a workout whose totals
 * are only in `<WorkoutStatistics>` (iOS 16 on) beside its events and route, the elements Klebb
 * does not read (`<ActivitySummary>`, `<ClinicalRecord>`, `<Audiogram>`, `<VisionPrescription>`),
 * a control character and a character reference to one; and the rows it gives each card, worked
 * out beside each check.
 */
import { expect } from 'vitest';
import type { IngestServer } from './helpers.js';

/**
 * The DTD as iOS 16 wrote it: ATTLISTs never closed (VisionPrescription's, and Attachment's just
 * before `]>`), a stray `>`.
 */
const IOS16_DTD = `<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 12 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type                 CDATA #REQUIRED
  sum                  CDATA #IMPLIED
  unit                 CDATA #IMPLIED
>
<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
<!ATTLIST VisionPrescription
  type             CDATA #REQUIRED
  dateIssued       CDATA #REQUIRED
  brand            CDATA #IMPLIED
<!ELEMENT RightEye EMPTY>
<!ATTLIST RightEye
  sphere           CDATA #IMPLIED
  sphereUnit       CDATA #IMPLIED
<!ELEMENT LeftEye EMPTY>
<!ATTLIST LeftEye
  sphere           CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
>
<!ELEMENT Attachment EMPTY>
<!ATTLIST Attachment
  identifier       CDATA #IMPLIED


]>`;

const Q = 'HKQuantityTypeIdentifier';
const PHONE = 'Anna’s iPhone';
const WATCH = 'Anna’s Apple\u00a0Watch';
const WATCH_DEVICE =
  '&lt;&lt;HKDevice: 0x283b1c5f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.1&gt;';

/** A `<Record>` with attributes in Apple's usual order, children `inner`. */
function rec(
  type: string,
  source: string,
  unit: string | null,
  start: string,
  end: string,
  value: string,
  inner = '',
) {
  const u = unit === null ? '' : ` unit="${unit}"`;
  const head = `<Record type="${type}" sourceName="${source}" sourceVersion="16.1"${u} creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"`;
  return inner ? ` ${head}>\n${inner}\n </Record>` : ` ${head}/>`;
}

/** The export (see the module comment); `nl` the line ending, `bom` a byte order mark first. */
export function modernExport(nl = '\n', bom = ''): string {
  const lines = [
    `${bom}<?xml version="1.0" encoding="UTF-8"?>`,
    IOS16_DTD,
    '<HealthData locale="de_DE">',
    ' <ExportDate value="2023-01-13 21:04:10 +0100"/>',
    ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-03-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>',
    // steps: 10 January 500 + 700 (the second with its attributes the other way round)
    rec(`${Q}StepCount`, PHONE, 'count', '2023-01-10 08:00:00 +0100', '2023-01-10 08:10:00 +0100', '500'),
    ` <Record value="700" endDate="2023-01-10 12:10:00 +0100" startDate="2023-01-10 12:00:00 +0100" creationDate="2023-01-10 12:11:00 +0100" unit="count" sourceVersion="16.1" sourceName="${PHONE}" type="${Q}StepCount"/>`,
    // 11 January: in India in the morning (+0530), in Newfoundland before midnight (-0330)
    rec(`${Q}StepCount`, PHONE, 'count', '2023-01-11 09:00:00 +0530', '2023-01-11 09:10:00 +0530', '300'),
    rec(`${Q}StepCount`, PHONE, 'count', '2023-01-11 23:30:00 -0330', '2023-01-11 23:40:00 -0330', '200'),
    // 12 January in Nepal (+0545), a control character in the source's name
    rec(
      `${Q}StepCount`,
      'Anna’s\u000biPhone',
      'count',
      '2023-01-12 07:00:00 +0545',
      '2023-01-12 07:10:00 +0545',
      '150',
    ),
    // weight: 72,5 kg (a comma decimal); 160 lb the next day
    rec(
      `${Q}BodyMass`,
      'Waage',
      'kg',
      '2023-01-10 07:00:00 +0100',
      '2023-01-10 07:00:00 +0100',
      '72,5',
      '  <MetadataEntry key="HKWasUserEntered" value="1"/>',
    ),
    rec(`${Q}BodyMass`, 'Waage', 'lb', '2023-01-11 07:00:00 +0100', '2023-01-11 07:00:00 +0100', '160'),
    // heart rate 60, 72, 90 count/min on 10 January, with their motion context
    ...['60', '72', '90'].map((v, i) =>
      rec(
        `${Q}HeartRate`,
        WATCH,
        'count/min',
        `2023-01-10 1${i}:00:00 +0100`,
        `2023-01-10 1${i}:00:00 +0100`,
        v,
        '  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>',
      ).replace('sourceVersion="16.1"', `sourceVersion="9.1" device="${WATCH_DEVICE}"`),
    ),
    // HRV 48 ms with the beats it was worked out from
    rec(
      `${Q}HeartRateVariabilitySDNN`,
      WATCH,
      'ms',
      '2023-01-10 22:01:00 +0100',
      '2023-01-10 22:02:00 +0100',
      '48',
      [
        '  <HeartRateVariabilityMetadataList>',
        '   <InstantaneousBeatsPerMinute bpm="61" time="10:01:02.34 PM"/>',
        '   <InstantaneousBeatsPerMinute bpm="63" time="10:01:03,31 PM"/>',
        '  </HeartRateVariabilityMetadataList>',
      ].join('\n'),
    ),
    // oxygen 0.97 (a fraction, in %) → 97 %
    rec(`${Q}OxygenSaturation`, WATCH, '%', '2023-01-10 03:00:00 +0100', '2023-01-10 03:00:00 +0100', '0.97'),
    // glucose: 95 mg/dL on the 10th, 5.4 mmol/L (Apple's unit with the molar mass) on the 11th
    rec(
      `${Q}BloodGlucose`,
      'Dexcom',
      'mg/dL',
      '2023-01-10 08:00:00 +0100',
      '2023-01-10 08:00:00 +0100',
      '95',
    ),
    rec(
      `${Q}BloodGlucose`,
      'Dexcom',
      'mmol&lt;180.1558800000541&gt;/L',
      '2023-01-11 08:00:00 +0100',
      '2023-01-11 08:00:00 +0100',
      '5.4',
    ),
    // body temperature: 98.6 °F = 37 °C on the 10th, 36,8 ºC (comma, ordinal sign) on the 11th
    rec(
      `${Q}BodyTemperature`,
      'Thermo',
      'degF',
      '2023-01-10 07:30:00 +0100',
      '2023-01-10 07:30:00 +0100',
      '98.6',
    ),
    rec(
      `${Q}BodyTemperature`,
      'Thermo',
      'ºC',
      '2023-01-11 07:30:00 +0100',
      '2023-01-11 07:30:00 +0100',
      '36,8',
    ),
    // blood pressure 120/80: the halves at top level, and again inside their correlation below
    rec(
      `${Q}BloodPressureSystolic`,
      'Omron',
      'mmHg',
      '2023-01-10 08:30:00 +0100',
      '2023-01-10 08:30:00 +0100',
      '120',
    ),
    rec(
      `${Q}BloodPressureDiastolic`,
      'Omron',
      'mmHg',
      '2023-01-10 08:30:00 +0100',
      '2023-01-10 08:30:00 +0100',
      '80',
    ),
    // 500 kcal eaten: at top level and inside its food correlation below (counted once)
    rec(
      `${Q}DietaryEnergyConsumed`,
      'Yazio',
      'kcal',
      '2023-01-10 12:30:00 +0100',
      '2023-01-10 12:30:00 +0100',
      '500',
    ),
    // a night of watchOS 9 stages ending on the 10th: core 23:15–02:00 and 04:10–06:50, deep
    // 02:00–03:00, REM 03:00–04:00, awake 04:00–04:10, in bed 23:00–07:00
    ...[
      ['InBed', '2023-01-09 23:00', '2023-01-10 07:00'],
      ['AsleepCore', '2023-01-09 23:15', '2023-01-10 02:00'],
      ['AsleepDeep', '2023-01-10 02:00', '2023-01-10 03:00'],
      ['AsleepREM', '2023-01-10 03:00', '2023-01-10 04:00'],
      ['Awake', '2023-01-10 04:00', '2023-01-10 04:10'],
      ['AsleepCore', '2023-01-10 04:10', '2023-01-10 06:50'],
    ].map(([v, s, e]) =>
      rec(
        'HKCategoryTypeIdentifierSleepAnalysis',
        WATCH,
        null,
        `${s}:00 +0100`,
        `${e}:00 +0100`,
        `HKCategoryValueSleepAnalysis${v}`,
        '  <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>',
      ),
    ),
    // the night before iOS 16 wrote stages: "Asleep" 23:30–06:30 ending on the 12th, from an app
    rec(
      'HKCategoryTypeIdentifierSleepAnalysis',
      'AutoSleep',
      null,
      '2023-01-11 23:30:00 +0100',
      '2023-01-12 06:30:00 +0100',
      'HKCategoryValueSleepAnalysisAsleep',
    ),
    // a goal, not a measurement: a bare HKDataType name with no metric
    rec(
      'HKDataTypeSleepDurationGoal',
      'Health',
      's',
      '2023-01-10 00:00:00 +0100',
      '2023-01-10 00:00:00 +0100',
      '28800',
    ),
    ' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" sourceVersion="2.1" creationDate="2023-01-10 08:31:00 +0100" startDate="2023-01-10 08:30:00 +0100" endDate="2023-01-10 08:30:00 +0100">',
    '  <MetadataEntry key="HKWasUserEntered" value="0"/>',
    ` ${rec(`${Q}BloodPressureSystolic`, 'Omron', 'mmHg', '2023-01-10 08:30:00 +0100', '2023-01-10 08:30:00 +0100', '120')}`,
    ` ${rec(`${Q}BloodPressureDiastolic`, 'Omron', 'mmHg', '2023-01-10 08:30:00 +0100', '2023-01-10 08:30:00 +0100', '80')}`,
    ' </Correlation>',
    ' <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Yazio" creationDate="2023-01-10 12:31:00 +0100" startDate="2023-01-10 12:30:00 +0100" endDate="2023-01-10 12:30:00 +0100">',
    '  <MetadataEntry key="HKFoodType" value="Spätzle &amp; Soße&#x1F;"/>',
    ` ${rec(`${Q}DietaryEnergyConsumed`, 'Yazio', 'kcal', '2023-01-10 12:30:00 +0100', '2023-01-10 12:30:00 +0100', '500')}`,
    ' </Correlation>',
    // a run of iOS 16: no totals on the workout, all in its statistics
    ` <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="38.5" durationUnit="min" sourceName="${WATCH}" sourceVersion="9.1" device="${WATCH_DEVICE}" creationDate="2023-01-11 07:41:00 +0100" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100">`,
    '  <MetadataEntry key="HKIndoorWorkout" value="0"/>',
    '  <MetadataEntry key="HKElevationAscended" value="4200 cm"/>',
    '  <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>',
    '  <MetadataEntry key="HKAverageMETs" value="9.5 kcal/hr·kg"/>',
    '  <WorkoutEvent type="HKWorkoutEventTypePause" date="2023-01-11 07:20:00 +0100"/>',
    '  <WorkoutEvent type="HKWorkoutEventTypeResume" date="2023-01-11 07:21:30 +0100"/>',
    '  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2023-01-11 07:00:00 +0100" duration="6.1" durationUnit="min"/>',
    `  <WorkoutStatistics type="${Q}StepCount" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100" sum="5021" unit="count"/>`,
    `  <WorkoutStatistics type="${Q}DistanceWalkingRunning" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100" sum="5.2" unit="km"/>`,
    `  <WorkoutStatistics type="${Q}ActiveEnergyBurned" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100" sum="410.4" unit="Cal"/>`,
    `  <WorkoutStatistics type="${Q}BasalEnergyBurned" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100" sum="80" unit="Cal"/>`,
    `  <WorkoutStatistics type="${Q}HeartRate" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100" average="151" minimum="118" maximum="176" unit="count/min"/>`,
    `  <WorkoutStatistics type="${Q}RunningPower" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100" average="251" minimum="80" maximum="390" unit="W"/>`,
    `  <WorkoutRoute sourceName="${WATCH}" sourceVersion="9.1" creationDate="2023-01-11 07:41:00 +0100" startDate="2023-01-11 07:00:00 +0100" endDate="2023-01-11 07:40:00 +0100">`,
    '   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>',
    '   <FileReference path="/workout-routes/route_2023-01-11_7.40am.gpx"/>',
    '  </WorkoutRoute>',
    ' </Workout>',
    ' <ActivitySummary dateComponents="2023-01-10" activeEnergyBurned="512.3" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="41" appleExerciseTimeGoal="30" appleStandHours="12" appleStandHoursGoal="12"/>',
    ' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="Observation-1" sourceName="Praxis" sourceURL="https://fhir.example/Observation/1" fhirVersion="4.0.1" receivedDate="2023-01-05 10:00:00 +0100" resourceFilePath="/clinical-records/Observation-1.json"/>',
    ' <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi" creationDate="2023-01-09 10:00:00 +0100" startDate="2023-01-09 10:00:00 +0100" endDate="2023-01-09 10:05:00 +0100">',
    '  <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz" leftEarValue="10" leftEarUnit="dBHL" rightEarValue="15" rightEarUnit="dBHL"/>',
    ' </Audiogram>',
    ' <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2022-11-01 00:00:00 +0100">',
    '  <RightEye sphere="-1.25" sphereUnit="D"/>',
    '  <LeftEye sphere="-1" sphereUnit="D"/>',
    ' </VisionPrescription>',
    '</HealthData>',
    '',
  ];
  return lines.join('\n').replace(/\n/g, nl);
}

export const MODERN_CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['weight', 'weight_body_mass'],
  ['heart', 'heart_rate'],
  ['hrv', 'heart_rate_variability'],
  ['oxygen', 'blood_oxygen_saturation'],
  ['glucose', 'blood_glucose'],
  ['temperature', 'body_temperature'],
  ['pressure', 'blood_pressure'],
  ['food', 'dietary_energy'],
  ['sleep', 'sleep_analysis'],
  ['workouts', 'workouts'],
];

/** What the export gives, card by card (see each record above). */
export async function expectModernCards(s: IngestServer): Promise<void> {
  // 500 + 700; 300 (+0530) + 200 (-0330), each on the date written; 150 (+0545)
  expect(await s.rows('steps')).toEqual([
    { date: '2023-01-10', count: 1200 },
    { date: '2023-01-11', count: 500 },
    { date: '2023-01-12', count: 150 },
  ]);
  // 72,5 kg; 160 lb × 0.45359237 = 72.57 kg
  expect(await s.rows('weight')).toEqual([
    { date: '2023-01-10', kg: 72.5 },
    { date: '2023-01-11', kg: 72.57 },
  ]);
  // (60 + 72 + 90) / 3 = 74
  expect(await s.rows('heart')).toEqual([{ date: '2023-01-10', min: 60, avg: 74, max: 90 }]);
  expect(await s.rows('hrv')).toEqual([{ date: '2023-01-10', ms: 48 }]);
  expect(await s.rows('oxygen')).toEqual([{ date: '2023-01-10', pct: 97 }]);
  expect(await s.rows('glucose')).toEqual([
    { date: '2023-01-10', mgdl: 95 },
    { date: '2023-01-11', mmol: 5.4 },
  ]);
  // (98.6 − 32) × 5/9 = 37; 36,8 ºC
  expect(await s.rows('temperature')).toEqual([
    { date: '2023-01-10', degC: 37 },
    { date: '2023-01-11', degC: 36.8 },
  ]);
  expect(await s.rows('pressure')).toEqual([{ date: '2023-01-10', systolic: 120, diastolic: 80 }]);
  expect(await s.rows('food')).toEqual([{ date: '2023-01-10', kcal: 500 }]);
  // core 2.75 + 2.67 h, deep 1, REM 1: 7.42 h asleep from 23:15 to 06:50, awake 0.17, in bed 8;
  // then 7 h "asleep" with no time in bed recorded
  expect(await s.rows('sleep')).toEqual([
    {
      date: '2023-01-10',
      hours: 7.42,
      core: 5.42,
      deep: 1,
      rem: 1,
      awake: 0.17,
      inBed: 8,
      bedTime: '23:15',
      wakeTime: '06:50',
      source: WATCH,
    },
    {
      date: '2023-01-12',
      hours: 7,
      asleep: 7,
      bedTime: '23:30',
      wakeTime: '06:30',
      source: 'AutoSleep',
    },
  ]);
  // 38.5 min; 5.2 km, 410 Cal (= kcal), heart rate 151/176, ascent 4200 cm = 42 m, from statistics
  expect(await s.rows('workouts')).toEqual([
    {
      date: '2023-01-11',
      trained: true,
      type: 'Running',
      durationMin: 38.5,
      distanceKm: 5.2,
      calories: 410,
      avgHr: 151,
      maxHr: 176,
      elevationM: 42,
      startTime: '07:00',
    },
  ]);
}
