/**
 * A generated Apple Health `export.xml` of a given size, shaped like a real one: the DTD and
 * `<ExportDate>`/`<Me>` head, then every record type in turn (Apple groups records by type), each
 * type's records day after day. One day of one person with an iPhone and an Apple Watch is the
 * sample: heart rate every few minutes with its motion-context metadata, active and basal energy
 * in small slices, steps and distance from both devices, stand, exercise, audio exposure, walking
 * metrics, respiratory rate, HRV with its beat-to-beat list, sleep stages, stand hours, weight
 * from a scale, blood pressure pairs with their `<Correlation>`, a workout every other day with
 * events, statistics and metadata, types Klebb does not map, and an `<ActivitySummary>` a day.
 * Attributes (the watch's device string, `sourceVersion`, `creationDate`) as the Health app writes
 * them, so a record averages about the ~330 bytes of real exports (1 GB ≈ 3 million records). Deterministic:
 * a seeded generator, so two runs write the same bytes.
 */
import fs from 'node:fs';

const Q = 'HKQuantityTypeIdentifier';
const C = 'HKCategoryTypeIdentifier';
const WATCH = 'Jane’s Apple Watch';
const PHONE = 'Jane’s iPhone';
const WATCH_DEVICE =
  '&lt;&lt;HKDevice: 0x2829d4e60&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1&gt;';

/** Mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Local day `d` days after 2019-01-01, with a European offset (+0200 April to October). */
function dayOf(d: number): { date: string; offset: string } {
  const t = new Date(Date.UTC(2019, 0, 1) + d * 86_400_000);
  const m = t.getUTCMonth() + 1;
  return {
    date: `${t.getUTCFullYear()}-${pad(m)}-${pad(t.getUTCDate())}`,
    offset: m >= 4 && m <= 10 ? '+0200' : '+0100',
  };
}

/** `date` at `sec` seconds after local midnight (clamped to the day). */
function stamp(day: { date: string; offset: string }, sec: number): string {
  const s = Math.max(0, Math.min(86_399, Math.floor(sec)));
  return `${day.date} ${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)} ${day.offset}`;
}

interface Kind {
  type: string;
  unit?: string;
  /** Records a day (a fraction: that chance of one more). */
  perDay: number;
  watch: boolean;
  /** The value of one record. */
  value: (r: () => number) => string;
  /** Seconds one record covers. */
  span: number;
  /** Children of a record (metadata), given the record's start. */
  children?: (r: () => number, day: { date: string; offset: string }, sec: number) => string;
}

const num =
  (lo: number, hi: number, dp = 0) =>
  (r: () => number) =>
    (lo + r() * (hi - lo)).toFixed(dp);

const KINDS: Kind[] = [
  { type: `${Q}Height`, unit: 'cm', perDay: 0.002, watch: false, value: () => '172', span: 0 },
  {
    type: `${Q}BodyMass`,
    unit: 'kg',
    perDay: 0.3,
    watch: false,
    value: num(70, 74, 1),
    span: 0,
    children: () => '  <MetadataEntry key="Withings User Identifier" value="12345"/>\n',
  },
  {
    type: `${Q}HeartRate`,
    unit: 'count/min',
    perDay: 250,
    watch: true,
    value: num(55, 130),
    span: 0,
    children: (r) =>
      `  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="${r() < 0.7 ? 0 : 1}"/>\n`,
  },
  { type: `${Q}RestingHeartRate`, unit: 'count/min', perDay: 1, watch: true, value: num(52, 60), span: 0 },
  {
    type: `${Q}WalkingHeartRateAverage`,
    unit: 'count/min',
    perDay: 1,
    watch: true,
    value: num(90, 110),
    span: 3600,
  },
  {
    type: `${Q}HeartRateVariabilitySDNN`,
    unit: 'ms',
    perDay: 2,
    watch: true,
    value: num(25, 70, 4),
    span: 60,
    children: (r, day, sec) => {
      let out = '  <HeartRateVariabilityMetadataList>\n';
      for (let i = 0; i < 60; i++) {
        const t = `${stamp(day, sec + i).slice(11, 19)}.${pad(Math.floor(r() * 99))}`;
        out += `   <InstantaneousBeatsPerMinute bpm="${55 + Math.floor(r() * 20)}" time="${t}"/>\n`;
      }
      return `${out}  </HeartRateVariabilityMetadataList>\n`;
    },
  },
  { type: `${Q}StepCount`, unit: 'count', perDay: 220, watch: false, value: num(10, 400), span: 300 },
  { type: `${Q}StepCount`, unit: 'count', perDay: 60, watch: true, value: num(10, 300), span: 300 },
  {
    type: `${Q}DistanceWalkingRunning`,
    unit: 'km',
    perDay: 220,
    watch: false,
    value: num(0.005, 0.3, 6),
    span: 300,
  },
  {
    type: `${Q}DistanceWalkingRunning`,
    unit: 'km',
    perDay: 60,
    watch: true,
    value: num(0.005, 0.2, 6),
    span: 300,
  },
  {
    type: `${Q}ActiveEnergyBurned`,
    unit: 'kcal',
    perDay: 300,
    watch: true,
    value: num(0.05, 5, 3),
    span: 60,
  },
  {
    type: `${Q}BasalEnergyBurned`,
    unit: 'kcal',
    perDay: 200,
    watch: true,
    value: num(0.5, 1.6, 3),
    span: 300,
  },
  { type: `${Q}FlightsClimbed`, unit: 'count', perDay: 10, watch: false, value: num(1, 4), span: 60 },
  { type: `${Q}AppleExerciseTime`, unit: 'min', perDay: 30, watch: true, value: () => '1', span: 60 },
  { type: `${Q}AppleStandTime`, unit: 'min', perDay: 20, watch: true, value: num(1, 5), span: 300 },
  {
    type: `${Q}EnvironmentalAudioExposure`,
    unit: 'dBASPL',
    perDay: 40,
    watch: true,
    value: num(40, 80, 5),
    span: 1800,
  },
  {
    type: `${Q}HeadphoneAudioExposure`,
    unit: 'dBASPL',
    perDay: 10,
    watch: false,
    value: num(50, 75, 5),
    span: 600,
  },
  { type: `${Q}WalkingSpeed`, unit: 'km/hr', perDay: 15, watch: false, value: num(3.5, 5.5, 2), span: 20 },
  { type: `${Q}WalkingStepLength`, unit: 'cm', perDay: 15, watch: false, value: num(60, 80), span: 20 },
  {
    type: `${Q}WalkingDoubleSupportPercentage`,
    unit: '%',
    perDay: 10,
    watch: false,
    value: num(0.25, 0.32, 3),
    span: 20,
  },
  {
    type: `${Q}WalkingAsymmetryPercentage`,
    unit: '%',
    perDay: 5,
    watch: false,
    value: num(0, 0.1, 2),
    span: 20,
  },
  {
    type: `${Q}RespiratoryRate`,
    unit: 'count/min',
    perDay: 30,
    watch: true,
    value: num(12, 18, 1),
    span: 120,
  },
  { type: `${Q}OxygenSaturation`, unit: '%', perDay: 4, watch: true, value: num(0.94, 0.99, 2), span: 0 },
  { type: `${Q}VO2Max`, unit: 'mL/min·kg', perDay: 0.2, watch: true, value: num(38, 44, 2), span: 0 },
  // not mapped by Klebb: counted and reported, never stored
  {
    type: `${Q}AppleWalkingSteadiness`,
    unit: '%',
    perDay: 0.15,
    watch: false,
    value: num(0.8, 1, 2),
    span: 0,
  },
  {
    type: `${C}AudioExposureEvent`,
    perDay: 0.05,
    watch: true,
    value: () => 'HKCategoryValueAudioExposureEventLoudEnvironment',
    span: 180,
  },
  {
    type: `${C}AppleStandHour`,
    perDay: 14,
    watch: true,
    value: (r) => (r() < 0.85 ? 'HKCategoryValueAppleStandHourStood' : 'HKCategoryValueAppleStandHourIdle'),
    span: 3600,
  },
  {
    type: `${C}MindfulSession`,
    perDay: 0.2,
    watch: true,
    value: () => 'HKCategoryValueNotApplicable',
    span: 600,
  },
];

const SLEEP_STAGES = [
  'HKCategoryValueSleepAnalysisAsleepCore',
  'HKCategoryValueSleepAnalysisAsleepDeep',
  'HKCategoryValueSleepAnalysisAsleepCore',
  'HKCategoryValueSleepAnalysisAsleepREM',
  'HKCategoryValueSleepAnalysisAwake',
];

function countFor(perDay: number, r: () => number): number {
  return Math.floor(perDay) + (r() < perDay - Math.floor(perDay) ? 1 : 0);
}

function recordXml(
  k: { type: string; unit?: string; watch: boolean },
  value: string,
  start: string,
  end: string,
  children = '',
): string {
  const src = k.watch
    ? `sourceName="${WATCH}" sourceVersion="9.1" device="${WATCH_DEVICE}"`
    : `sourceName="${PHONE}" sourceVersion="16.1"`;
  const unit = k.unit ? ` unit="${k.unit}"` : '';
  const head = ` <Record type="${k.type}" ${src}${unit} creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"`;
  return children ? `${head}>\n${children} </Record>\n` : `${head}/>\n`;
}

/** One kind's records of day `d`. */
function kindDay(k: Kind, d: number, r: () => number): string {
  const day = dayOf(d);
  const n = countFor(k.perDay, r);
  let out = '';
  for (let i = 0; i < n; i++) {
    const sec = ((i + r()) / Math.max(n, 1)) * 86_000;
    const start = stamp(day, sec);
    const end = stamp(day, sec + k.span);
    out += recordXml(k, k.value(r), start, end, k.children?.(r, day, sec));
  }
  return out;
}

/** The night ending on day `d`: stages from the watch, in bed from the phone. */
function sleepDay(d: number, r: () => number): string {
  const day = dayOf(d);
  const kind = { type: `${C}SleepAnalysis`, watch: true };
  let out = '';
  let sec = 60 + r() * 1800;
  const n = 22 + Math.floor(r() * 8);
  for (let i = 0; i < n && sec < 8 * 3600; i++) {
    const len = 300 + r() * 1200;
    out += recordXml(
      kind,
      SLEEP_STAGES[Math.floor(r() * SLEEP_STAGES.length)],
      stamp(day, sec),
      stamp(day, sec + len),
    );
    sec += len;
  }
  out += recordXml(
    { type: `${C}SleepAnalysis`, watch: false },
    'HKCategoryValueSleepAnalysisInBed',
    stamp(day, 30),
    stamp(day, sec),
  );
  return out;
}

/** Blood pressure on some mornings: both halves at top level, and their `<Correlation>`. */
function bloodPressureDay(d: number, r: () => number): { records: string; correlations: string } {
  if (r() > 0.2) return { records: '', correlations: '' };
  const day = dayOf(d);
  const t = stamp(day, 7 * 3600 + r() * 3600);
  const k = (type: string) => ({ type: `${Q}${type}`, unit: 'mmHg', watch: false });
  const sys = recordXml(k('BloodPressureSystolic'), (115 + Math.floor(r() * 20)).toString(), t, t);
  const dia = recordXml(k('BloodPressureDiastolic'), (72 + Math.floor(r() * 12)).toString(), t, t);
  const corr = ` <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="${PHONE}" sourceVersion="16.1" creationDate="${t}" startDate="${t}" endDate="${t}">\n ${sys} ${dia} </Correlation>\n`;
  return { records: sys + dia, correlations: corr };
}

function workoutDay(d: number, r: () => number): string {
  if (r() > 0.5) return '';
  const day = dayOf(d);
  const sec = 17 * 3600 + r() * 3600;
  const mins = 25 + r() * 40;
  const start = stamp(day, sec);
  const end = stamp(day, sec + mins * 60);
  const km = (mins / 6).toFixed(4);
  const kcal = (mins * 11).toFixed(3);
  return (
    ` <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="${mins.toFixed(4)}" durationUnit="min" sourceName="${WATCH}" sourceVersion="9.1" device="${WATCH_DEVICE}" creationDate="${end}" startDate="${start}" endDate="${end}">\n` +
    '  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n' +
    '  <MetadataEntry key="HKElevationAscended" value="4200 cm"/>\n' +
    `  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="${start}" duration="${(mins / 2).toFixed(4)}" durationUnit="min"/>\n` +
    `  <WorkoutStatistics type="${Q}ActiveEnergyBurned" startDate="${start}" endDate="${end}" sum="${kcal}" unit="kcal"/>\n` +
    `  <WorkoutStatistics type="${Q}DistanceWalkingRunning" startDate="${start}" endDate="${end}" sum="${km}" unit="km"/>\n` +
    `  <WorkoutStatistics type="${Q}HeartRate" startDate="${start}" endDate="${end}" average="${(140 + r() * 15).toFixed(2)}" minimum="98" maximum="171" unit="count/min"/>\n` +
    ' </Workout>\n'
  );
}

function activitySummary(d: number, r: () => number): string {
  const day = dayOf(d);
  return ` <ActivitySummary dateComponents="${day.date}" activeEnergyBurned="${(300 + r() * 400).toFixed(3)}" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="${Math.floor(r() * 60)}" appleExerciseTimeGoal="30" appleStandHours="${10 + Math.floor(r() * 5)}" appleStandHoursGoal="12"/>\n`;
}

/**
 * The DTD newer exports start with (after the XML declaration), for HealthKit export `version`
 * (11 here, 8 in test/fixtures/apple-health-export.ts), ending with a newline.
 */
export function appleExportDtd(version: number): string {
  return `<!DOCTYPE HealthData [
<!-- HealthKit Export Version: ${version} -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
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
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
]>
`;
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
${appleExportDtd(11)}<HealthData locale="en_GB">
 <ExportDate value="2026-11-30 21:04:10 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-03-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
`;

/** Sections in file order: each gives day `d`'s text. */
function sections(): ((d: number, r: () => number) => string)[] {
  return [
    ...KINDS.map((k) => (d: number, r: () => number) => kindDay(k, d, r)),
    (d, r) => bloodPressureDay(d, r).records,
    sleepDay,
    (d, r) => bloodPressureDay(d, r).correlations,
    workoutDay,
    activitySummary,
  ];
}

/** Bytes one average day writes (a week of each section, divided by 7). */
function bytesPerDay(): number {
  let n = 0;
  sections().forEach((s, i) => {
    const r = rng(1000 + i);
    for (let d = 0; d < 7; d++) n += Buffer.byteLength(s(d, r));
  });
  return n / 7;
}

const TOP_RECORD = /^ <Record /gm;

/** What was written. */
export interface AppleExportInfo {
  bytes: number;
  days: number;
  /** `<Record>` elements at top level (blood pressure halves inside correlations not counted). */
  records: number;
}

/**
 * Writes an export of about `targetBytes` to `file` (days enough to reach it).
 * Blood pressure records and their correlations use the same seed, so they match.
 */
export function writeAppleExport(file: string, targetBytes: number): AppleExportInfo {
  const days = Math.max(1, Math.round((targetBytes - HEAD.length) / bytesPerDay()));
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  let records = 0;
  let buf = '';
  const put = (s: string, force = false) => {
    buf += s;
    if (buf.length > 1 << 20 || force) {
      bytes += fs.writeSync(fd, buf);
      buf = '';
    }
  };
  try {
    put(HEAD);
    sections().forEach((s, i) => {
      // blood pressure records and correlations (sections n-4 and n-2) share a seed
      const seed = i === KINDS.length + 2 ? KINDS.length : i;
      const r = rng(1000 + seed);
      for (let d = 0; d < days; d++) {
        const text = s(d, r);
        records += text.match(TOP_RECORD)?.length ?? 0;
        put(text);
      }
    });
    put('</HealthData>\n', true);
  } finally {
    fs.closeSync(fd);
  }
  return { bytes, days, records };
}
