/**
 * The HAE metric catalogue as data (docs/HEALTH-AUTO-EXPORT.md "The metrics"): one
 * entry per metric under the name current real payloads use, with the older or enum-only names as
 * aliases ("Names / schema drift" pitfall), the card category, how samples of one local date
 * become one row, the canonical unit every value is converted into, and the row shape.
 *
 * Aggregation kinds (`last-per-date`, `sum-per-date`, `mean-per-date`, `max-per-date`,
 * `boolean-any-per-date`, `workouts-merge-per-date`) plus `sleep`: the catalogue lists sleep as
 * last-per-date, but a day can hold a night and a nap, and one night can arrive from several
 * sources or partially then completely; `sleep` is "latest version per night, nights and naps of
 * the wake day summed" (see aggregate.ts). Unknown metric names are kept by extraction (for
 * discovery) but have no entry here.
 */
import type { KnownCategory } from '../../../cards/categories.js';
import { healthKitMetric } from './healthkit-types.js';
import { DIMENSIONS, type DimensionName } from './units.js';

/** Card categories an HAE metric can have (docs/MANIFEST-SCHEMA.md `meta.category`, auto-filled from here). */
export type HaeCategory = Exclude<KnownCategory, 'supplements'>;

/** How the samples of one local date become one row (see the module comment). */
export type AggregationKind = 'last' | 'sum' | 'mean' | 'max' | 'any' | 'sleep' | 'workouts';

/** How a payload point is read (docs/HEALTH-AUTO-EXPORT.md "Special shapes"). */
export type PointShape =
  | 'qty' // {date, qty}
  | 'minAvgMax' // heart_rate {Min, Avg, Max}
  | 'bloodPressure' // {systolic, diastolic}
  | 'glucose' // {qty, mealTime}; the unit names the field (mg/dL vs mmol/L kept apart)
  | 'counts' // sexual_activity {Unspecified, Protection Used, Protection Not Used}
  | 'symptom' // one symptom logged {start, name, severity} (symptoms.ts)
  | 'doses' // one medication dose {start, displayText, status} (medications.ts)
  | 'outcome' // one test taken {start, outcome}: the field its outcome names counts 1 (cycle-tracking.ts)
  | 'mood' // one state of mind {start, kind, valence} (iOS 18, HKStateOfMind)
  | 'sleep' // the sleep analysis shapes
  | 'workouts'; // the `workouts` array

/** One output field of a row. */
export interface RowField {
  /** Field name in the row, e.g. `kg`. */
  readonly name: string;
  /** Unit of the field (canonical unit of its dimension), '' for text and booleans. */
  readonly unit: string;
  /** Decimals the row value is rounded to (sums are rounded only here, never per sample). */
  readonly decimals: number;
  /** Per-field reducer for `mean` entries with several fields (heart_rate `min`/`max`). */
  readonly reduce?: 'min' | 'max';
  /** Shown as `name?` in the row shape: not every row carries it. */
  readonly optional?: boolean;
}

/** One catalogue entry. */
export interface CatalogueEntry {
  /** Catalogue key, the name current real payloads use (`weight_body_mass`). */
  readonly key: string;
  /** Other names accepted for it: older payload names, reference-server enum spellings. */
  readonly aliases: readonly string[];
  readonly category: HaeCategory;
  readonly kind: AggregationKind;
  readonly shape: PointShape;
  /** Canonical dimension of the numeric fields (conversion table in units.ts). */
  readonly dimension: DimensionName;
  /** Row fields after `date`, in order. */
  readonly fields: readonly RowField[];
  /** Sample metric the rows are built from (derived entries read another metric's samples). */
  readonly reads: string;
  /**
   * Values ≤ 1 arriving in `%` are fractions and are multiplied by 100 ("fraction →
   * percent"; pitfall "SpO2 0.94 next to 94.5"). Only set where a real percentage ≤ 1 cannot
   * happen (SpO2, body fat, double support); never for walking asymmetry or blood alcohol. (An
   * Apple Health export, whose percentages are all fractions, says so by its unit instead.)
   */
  readonly fractionToPercent?: boolean;
  /**
   * What a person or an app logs (food, water, caffeine, drinks, insulin, inhaler puffs), never
   * measured by two devices at once: the entries of sources that share no device are separate
   * intakes, added together as Apple Health adds them (water logged in one app and a glass
   * entered in Health), where the readings of a measured total (steps of the phone and the
   * watch) are one walk counted twice.
   */
  readonly loggedIntake?: boolean;
  /** Point fields kept as text in the sample (e.g. `mealTime`). */
  readonly textFields?: readonly string[];
  /** `{date, kg}`: the row shape as text. */
  readonly rowShape: string;
}

interface EntrySpec {
  key: string;
  aliases?: string[];
  category: HaeCategory;
  kind: AggregationKind;
  dimension: DimensionName;
  field?: string;
  decimals?: number;
  shape?: PointShape;
  fields?: Omit<RowField, 'unit'>[];
  reads?: string;
  fractionToPercent?: boolean;
  loggedIntake?: boolean;
  textFields?: string[];
}

function entry(spec: EntrySpec): CatalogueEntry {
  const unit = DIMENSIONS[spec.dimension].canonical;
  // every field and every entry has the same properties, in the same order (absent ones
  // undefined): code reading them per point then sees one object layout, not one per metric
  const fields: RowField[] = (
    spec.fields ?? [{ name: spec.field ?? 'value', decimals: spec.decimals ?? 1 }]
  ).map((f) => ({
    name: f.name,
    unit: f.name === 'mgdl' ? 'mg/dL' : f.name === 'mmol' ? 'mmol/L' : unit,
    decimals: f.decimals,
    reduce: f.reduce,
    optional: f.optional,
  }));
  const shapeText = fields.map((f) => (f.optional ? `${f.name}?` : f.name)).join(', ');
  return {
    key: spec.key,
    aliases: spec.aliases ?? [],
    category: spec.category,
    kind: spec.kind,
    shape: spec.shape ?? 'qty',
    dimension: spec.dimension,
    fields,
    reads: spec.reads ?? spec.key,
    fractionToPercent: spec.fractionToPercent ? true : undefined,
    loggedIntake: spec.loggedIntake ? true : undefined,
    textFields: spec.textFields,
    rowShape: `{date, ${shapeText}}`,
  };
}

/**
 * One single-field metric: `m(key, category, kind, dimension, field, decimals, extra)`, so the
 * table below reads as one line per metric.
 */
function m(
  key: string,
  category: HaeCategory,
  kind: AggregationKind,
  dimension: DimensionName,
  field: string,
  decimals: number,
  extra: Partial<EntrySpec> = {},
): CatalogueEntry {
  return entry({ key, category, kind, dimension, field, decimals, ...extra });
}

/** The tests of a kind taken on a day, counted by outcome: each outcome an optional field. */
function testOutcomes(key: string, outcomes: string[]): CatalogueEntry {
  return entry({
    key,
    category: 'body',
    kind: 'sum',
    dimension: 'count',
    shape: 'outcome',
    fields: outcomes.map((name) => ({ name, decimals: 0, optional: true })),
  });
}

/** Sum-per-date nutrient in grams, milligrams or micrograms (docs/HEALTH-AUTO-EXPORT.md, last rows). */
function nutrient(key: string, dimension: 'g' | 'mg' | 'mcg', aliases?: string[]): CatalogueEntry {
  return m(key, 'lifestyle', 'sum', dimension, dimension, 1, { aliases, ...LOGGED });
}

const SLEEP_FIELDS: Omit<RowField, 'unit'>[] = [
  { name: 'hours', decimals: 2, optional: true },
  { name: 'asleep', decimals: 2, optional: true },
  { name: 'inBed', decimals: 2, optional: true },
  { name: 'deep', decimals: 2, optional: true },
  { name: 'rem', decimals: 2, optional: true },
  { name: 'core', decimals: 2, optional: true },
  { name: 'unspecified', decimals: 2, optional: true },
  { name: 'awake', decimals: 2, optional: true },
  { name: 'bedTime', decimals: 0, optional: true },
  { name: 'wakeTime', decimals: 0, optional: true },
  { name: 'source', decimals: 0, optional: true },
];

const WORKOUT_FIELDS: Omit<RowField, 'unit'>[] = [
  { name: 'trained', decimals: 0 },
  { name: 'type', decimals: 0, optional: true },
  { name: 'durationMin', decimals: 1, optional: true },
  { name: 'distanceKm', decimals: 2, optional: true },
  { name: 'calories', decimals: 0, optional: true },
  { name: 'avgHr', decimals: 0, optional: true },
  { name: 'maxHr', decimals: 0, optional: true },
  { name: 'elevationM', decimals: 0, optional: true },
  { name: 'startTime', decimals: 0, optional: true },
];

const PCT_FROM_FRACTION = { fractionToPercent: true };
const LOGGED = { loggedIntake: true };

/**
 * Every metric of docs/HEALTH-AUTO-EXPORT.md "The metrics", in catalogue order (roughly the
 * HAE "Supported Data" groups). Columns: key, category, aggregation, dimension (canonical unit),
 * row field, decimals (the precision a person reads the value at), extras.
 */
// biome-ignore format: one line per metric reads as a table
export const CATALOGUE: readonly CatalogueEntry[] = [
  // Sleep (docs/HEALTH-AUTO-EXPORT.md)
  entry({ key: 'sleep_analysis', category: 'sleep', kind: 'sleep', dimension: 'hr', shape: 'sleep', fields: SLEEP_FIELDS }),
  m('breathing_disturbances', 'sleep', 'last', 'perHour', 'perHour', 1),
  m('sleep_apnea_notifications', 'sleep', 'sum', 'count', 'count', 0),
  // Recovery
  m('heart_rate_variability', 'recovery', 'mean', 'ms', 'ms', 1),
  // RMSSD (iOS 27's Recovery HRV) is another statistic of the beats than SDNN: never mixed with it
  m('heart_rate_variability_rmssd', 'recovery', 'mean', 'ms', 'ms', 1),
  m('resting_heart_rate', 'recovery', 'last', 'perMin', 'bpm', 1),
  m('cardio_recovery', 'recovery', 'last', 'perMin', 'bpm', 1),
  // Activity
  m('step_count', 'activity', 'sum', 'count', 'count', 0),
  m('walking_running_distance', 'activity', 'sum', 'km', 'km', 2),
  m('active_energy', 'activity', 'sum', 'kcal', 'kcal', 0),
  m('basal_energy_burned', 'activity', 'sum', 'kcal', 'kcal', 0, { aliases: ['resting_energy'] }),
  m('apple_exercise_time', 'activity', 'sum', 'min', 'minutes', 1),
  m('apple_move_time', 'activity', 'sum', 'min', 'minutes', 1),
  m('apple_stand_time', 'activity', 'sum', 'min', 'minutes', 1),
  m('apple_stand_hour', 'activity', 'sum', 'count', 'hours', 0),
  m('flights_climbed', 'activity', 'sum', 'count', 'count', 0),
  m('cycling_distance', 'activity', 'sum', 'km', 'km', 2),
  m('swimming_distance', 'activity', 'sum', 'm', 'm', 0),
  m('swim_stroke_count', 'activity', 'sum', 'count', 'count', 0),
  m('distance_downhill_snow_sports', 'activity', 'sum', 'km', 'km', 2, { aliases: ['downhill_snow_sports'] }),
  m('wheelchair_distance', 'activity', 'sum', 'km', 'km', 2),
  m('wheelchair_push_count', 'activity', 'sum', 'count', 'count', 0),
  m('walking_heart_rate_average', 'activity', 'last', 'perMin', 'bpm', 1, { aliases: ['walking_heart_rate'] }),
  m('vo2_max', 'activity', 'last', 'vo2', 'vo2max', 1),
  m('physical_effort', 'activity', 'mean', 'met', 'met', 1),
  // the effort of the day's hardest workout, as rated by the person or estimated by the watch (1–10)
  m('workout_effort_score', 'activity', 'max', 'effort', 'score', 1),
  m('estimated_workout_effort_score', 'activity', 'max', 'effort', 'score', 1),
  m('walking_speed', 'activity', 'mean', 'kmh', 'kmh', 2),
  m('walking_step_length', 'activity', 'mean', 'cm', 'cm', 1),
  m('walking_asymmetry_percentage', 'activity', 'mean', 'pct', 'pct', 1),
  m('walking_double_support_percentage', 'activity', 'mean', 'pct', 'pct', 1, PCT_FROM_FRACTION),
  m('six_minute_walking_test_distance', 'activity', 'last', 'm', 'm', 0),
  m('stair_speed_up', 'activity', 'mean', 'mps', 'mps', 2),
  m('stair_speed_down', 'activity', 'mean', 'mps', 'mps', 2),
  m('cycling_cadence', 'activity', 'mean', 'perMin', 'rpm', 0),
  m('cycling_power', 'activity', 'mean', 'watt', 'watts', 0),
  m('cycling_speed', 'activity', 'mean', 'kmh', 'kmh', 1),
  m('cycling_functional_threshold_power', 'activity', 'last', 'watt', 'watts', 0),
  m('running_power', 'activity', 'mean', 'watt', 'watts', 0),
  m('running_speed', 'activity', 'mean', 'kmh', 'kmh', 2),
  m('running_stride_length', 'activity', 'mean', 'm', 'm', 2),
  m('running_ground_contact_time', 'activity', 'mean', 'ms', 'ms', 0),
  m('running_vertical_oscillation', 'activity', 'mean', 'cm', 'cm', 1),
  m('rowing_distance', 'activity', 'sum', 'km', 'km', 2),
  m('paddle_sports_distance', 'activity', 'sum', 'km', 'km', 2),
  m('cross_country_skiing_distance', 'activity', 'sum', 'km', 'km', 2),
  m('skating_sports_distance', 'activity', 'sum', 'km', 'km', 2),
  m('rowing_speed', 'activity', 'mean', 'kmh', 'kmh', 1),
  m('paddle_sports_speed', 'activity', 'mean', 'kmh', 'kmh', 1),
  m('cross_country_skiing_speed', 'activity', 'mean', 'kmh', 'kmh', 1),
  m('walking_steadiness', 'activity', 'last', 'pct', 'pct', 0, PCT_FROM_FRACTION),
  m('walking_steadiness_notifications', 'activity', 'sum', 'count', 'count', 0),
  m('low_cardio_fitness_notifications', 'activity', 'sum', 'count', 'count', 0),
  m('under_water_depth', 'activity', 'max', 'm', 'm', 1),
  m('under_water_temperature', 'activity', 'mean', 'degC', 'degC', 1),
  entry({ key: 'workouts', category: 'activity', kind: 'workouts', dimension: 'scalar', shape: 'workouts', fields: WORKOUT_FIELDS }),
  // Body
  m('weight_body_mass', 'body', 'last', 'kg', 'kg', 2, { aliases: ['body_mass'] }),
  m('body_mass_index', 'body', 'last', 'scalar', 'bmi', 1),
  m('body_fat_percentage', 'body', 'last', 'pct', 'pct', 1, PCT_FROM_FRACTION),
  m('lean_body_mass', 'body', 'last', 'kg', 'kg', 2),
  m('height', 'body', 'last', 'cm', 'cm', 1),
  m('waist_circumference', 'body', 'last', 'cm', 'cm', 1),
  // Vitals
  entry({
    key: 'heart_rate', category: 'vitals', kind: 'mean', dimension: 'perMin', shape: 'minAvgMax',
    fields: [{ name: 'min', decimals: 0, reduce: 'min' }, { name: 'avg', decimals: 1 }, { name: 'max', decimals: 0, reduce: 'max' }],
  }),
  entry({
    key: 'blood_pressure', category: 'vitals', kind: 'last', dimension: 'mmHg', shape: 'bloodPressure',
    fields: [{ name: 'systolic', decimals: 0 }, { name: 'diastolic', decimals: 0 }],
  }),
  m('blood_pressure_systolic', 'vitals', 'last', 'mmHg', 'systolic', 0, { reads: 'blood_pressure' }),
  m('blood_pressure_diastolic', 'vitals', 'last', 'mmHg', 'diastolic', 0, { reads: 'blood_pressure' }),
  m('blood_oxygen_saturation', 'vitals', 'mean', 'pct', 'pct', 1, PCT_FROM_FRACTION),
  m('respiratory_rate', 'vitals', 'mean', 'perMin', 'breathsPerMin', 1),
  entry({
    key: 'blood_glucose', category: 'vitals', kind: 'mean', dimension: 'mgdl', shape: 'glucose', textFields: ['mealTime'],
    fields: [{ name: 'mgdl', decimals: 0, optional: true }, { name: 'mmol', decimals: 1, optional: true }],
  }),
  m('body_temperature', 'vitals', 'last', 'degC', 'degC', 2),
  m('basal_body_temperature', 'vitals', 'last', 'degC', 'degC', 2),
  m('apple_sleeping_wrist_temperature', 'vitals', 'last', 'degC', 'degC', 2),
  m('atrial_fibrillation_burden', 'vitals', 'last', 'pct', 'pct', 1),
  m('peripheral_perfusion_index', 'vitals', 'mean', 'pct', 'pct', 2),
  m('electrodermal_activity', 'vitals', 'mean', 'uS', 'uS', 2),
  m('forced_expiratory_volume_1', 'vitals', 'last', 'l', 'liters', 2, { aliases: ['forced_expiratory_volume'] }),
  m('forced_vital_capacity', 'vitals', 'last', 'l', 'liters', 2),
  m('peak_expiratory_flow_rate', 'vitals', 'last', 'lPerMin', 'litersPerMin', 0),
  m('number_of_times_fallen', 'vitals', 'sum', 'count', 'count', 0, { aliases: ['number_of_time_fallen'] }),
  m('high_heart_rate_notifications', 'vitals', 'sum', 'count', 'count', 0),
  m('low_heart_rate_notifications', 'vitals', 'sum', 'count', 'count', 0),
  m('irregular_heart_rhythm_notifications', 'vitals', 'sum', 'count', 'count', 0),
  m('hypertension_notifications', 'vitals', 'sum', 'count', 'count', 0),
  // electrocardiograms recorded with the watch, counted by classification (ecg.ts)
  entry({
    key: 'ecg', category: 'vitals', kind: 'sum', dimension: 'count', shape: 'outcome',
    fields: ['sinusRhythm', 'atrialFibrillation', 'inconclusive', 'unclassified'].map((name) => ({ name, decimals: 0, optional: true })),
  }),
  // symptoms felt, one point each (symptoms.ts)
  m('symptoms', 'vitals', 'sum', 'count', 'count', 0, { shape: 'symptom', textFields: ['symptom', 'severity'], ...LOGGED }),
  // Mindfulness
  m('mindful_minutes', 'mindfulness', 'sum', 'min', 'minutes', 1),
  // how pleasant a mood or emotion logged in the Health app felt, -1 (very unpleasant) to 1
  m('state_of_mind', 'mindfulness', 'mean', 'scalar', 'valence', 2, { shape: 'mood', textFields: ['kind'] }),
  // Lifestyle: hearing, daylight, hygiene, alcohol, nutrition
  m('environmental_audio_exposure', 'lifestyle', 'mean', 'db', 'db', 1, { aliases: ['environmental_audio'] }),
  m('headphone_audio_exposure', 'lifestyle', 'mean', 'db', 'db', 1, { aliases: ['headphone_audio'] }),
  // how much AirPods took off loud surroundings (iOS 18)
  m('environmental_sound_reduction', 'lifestyle', 'mean', 'db', 'db', 1),
  m('environmental_audio_exposure_notifications', 'lifestyle', 'sum', 'count', 'count', 0),
  m('headphone_audio_exposure_notifications', 'lifestyle', 'sum', 'count', 'count', 0),
  m('time_in_daylight', 'lifestyle', 'sum', 'min', 'minutes', 1),
  m('uv_exposure', 'lifestyle', 'max', 'scalar', 'index', 1),
  m('handwashing', 'lifestyle', 'sum', 's', 'seconds', 0, { textFields: ['value'] }),
  m('toothbrushing', 'lifestyle', 'sum', 's', 'seconds', 0, { textFields: ['value'] }),
  // a day with menstrual bleeding logged (records.ts; a record of no flow is not one)
  m('menstrual_flow', 'body', 'any', 'count', 'logged', 0),
  // cycle tracking (cycle-tracking.ts): spotting between periods a day logged; the mucus seen, 1
  // (dry) to 5 (egg white), the day's most fertile; the tests taken, counted by their outcome
  m('intermenstrual_bleeding', 'body', 'any', 'count', 'logged', 0),
  // bleeding logged while pregnant or after a pregnancy (iOS 18): no period, kept apart from it
  m('bleeding_during_pregnancy', 'body', 'any', 'count', 'logged', 0),
  m('bleeding_after_pregnancy', 'body', 'any', 'count', 'logged', 0),
  // and after menopause (iOS 27)
  m('bleeding_after_menopause', 'body', 'any', 'count', 'logged', 0),
  // irregular, infrequent or prolonged periods, persistent spotting, as the Health app detects them
  m('cycle_deviation_notifications', 'body', 'sum', 'count', 'count', 0),
  m('cervical_mucus_quality', 'body', 'max', 'scalar', 'quality', 0),
  testOutcomes('ovulation_test', ['positive', 'estrogenSurge', 'negative', 'indeterminate']),
  testOutcomes('pregnancy_test', ['positive', 'negative', 'indeterminate']),
  testOutcomes('progesterone_test', ['positive', 'negative', 'indeterminate']),
  entry({ key: 'sexual_activity', category: 'lifestyle', kind: 'any', dimension: 'count', shape: 'counts', fields: [{ name: 'logged', decimals: 0 }] }),
  m('alcohol_consumption', 'lifestyle', 'sum', 'count', 'drinks', 1, { aliases: ['number_of_alcoholic_beverages'], ...LOGGED }),
  m('blood_alcohol_content', 'lifestyle', 'max', 'pct', 'pct', 3),
  m('dietary_energy', 'lifestyle', 'sum', 'kcal', 'kcal', 0, LOGGED),
  m('dietary_water', 'lifestyle', 'sum', 'ml', 'ml', 0, LOGGED),
  nutrient('caffeine', 'mg', ['dietary_caffeine']),
  nutrient('cholesterol', 'mg', ['dietary_cholesterol']),
  nutrient('dietary_sugar', 'g'),
  nutrient('dietary_biotin', 'mcg', ['biotin']),
  nutrient('carbohydrates', 'g'),
  nutrient('protein', 'g'),
  nutrient('fiber', 'g'),
  nutrient('total_fat', 'g'),
  nutrient('saturated_fat', 'g'),
  nutrient('monounsaturated_fat', 'g', ['monosaturated_fat']),
  nutrient('polyunsaturated_fat', 'g'),
  ...['calcium', 'chloride', 'copper', 'iron', 'magnesium', 'manganese', 'niacin', 'pantothenic_acid', 'phosphorus',
    'potassium', 'riboflavin', 'sodium', 'thiamin', 'zinc', 'vitamin_b6', 'vitamin_c', 'vitamin_e'].map((k) => nutrient(k, 'mg')),
  ...['chromium', 'folate', 'selenium', 'vitamin_a', 'vitamin_b12', 'vitamin_d', 'vitamin_k', 'molybdenum', 'iodine'].map((k) =>
    nutrient(k, 'mcg'),
  ),
  // Medication
  m('insulin_delivery', 'medication', 'sum', 'iu', 'iu', 1, { textFields: ['reason'], ...LOGGED }),
  m('inhaler_usage', 'medication', 'sum', 'count', 'count', 0, LOGGED),
  // doses of the medications logged in the Health app, taken or skipped (medications.ts)
  entry({
    key: 'medications', category: 'medication', kind: 'sum', dimension: 'count', shape: 'doses', textFields: ['medication'],
    fields: [{ name: 'taken', decimals: 0, optional: true }, { name: 'skipped', decimals: 0, optional: true }], ...LOGGED,
  }),
];

const BY_NAME = new Map<string, CatalogueEntry>();
for (const e of CATALOGUE) {
  for (const name of [e.key, ...e.aliases]) {
    if (BY_NAME.has(name)) throw new Error(`HAE catalogue: duplicate name ${name}`);
    BY_NAME.set(name, e);
  }
}

/** Lookup spelling: trimmed, lower case, spaces and dashes as `_` (`Step Count` → `step_count`). */
function nameKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * A name with only its letters and digits, lower case: `stepCount`, `Step Count`, `step_count`
 * and `Weight & Body Mass` are `stepcount` / `weightbodymass`.
 */
function compactKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Catalogue names by compactKey, for names written in another style (camelCase as scripts and
 * other exporters write them, display names with `&` or `+`). A compact form two entries share is
 * left out: it names neither (none does today; a later entry must not make a name mean another).
 */
const BY_COMPACT = new Map<string, CatalogueEntry>();
{
  const shared = new Set<string>();
  for (const e of CATALOGUE) {
    for (const name of [e.key, ...e.aliases]) {
      const c = compactKey(name);
      const seen = BY_COMPACT.get(c);
      if (seen !== undefined && seen !== e) shared.add(c);
      else BY_COMPACT.set(c, e);
    }
  }
  for (const c of shared) BY_COMPACT.delete(c);
}

/**
 * The catalogue entry for a metric name or alias (`body_mass` → the `weight_body_mass` entry,
 * `dietary_caffeine` → `caffeine`), also written in another style when only its letters and
 * digits match exactly one entry (`stepCount`, `Weight & Body Mass`), or named by its HealthKit
 * identifier as the Apple Health import maps it (`HKQuantityTypeIdentifierActiveEnergyBurned`,
 * `ActiveEnergyBurned`: healthkit-types.ts), or undefined for a name the catalogue does not know
 * (`steps` is not `step_count`: no part of a name is guessed).
 */
export function resolveMetric(name: string): CatalogueEntry | undefined {
  if (typeof name !== 'string') return undefined;
  const entry = BY_NAME.get(nameKey(name)) ?? BY_COMPACT.get(compactKey(name));
  if (entry !== undefined) return entry;
  const key = healthKitMetric(name);
  return key === undefined ? undefined : BY_NAME.get(key);
}

/** True when `name` is a catalogue key or alias (the `meta.ingest.metric` check). */
export function isKnownMetric(name: string): boolean {
  return resolveMetric(name) !== undefined;
}

/**
 * The catalogue as a text block for the system prompt: one line per metric,
 * `key (category): {date, field, ...}` plus its aliases, so the model subscribes cards by key.
 */
export function catalogueForPrompt(): string {
  return CATALOGUE.map((e) => {
    const aliases = e.aliases.length ? ` (also: ${e.aliases.join(', ')})` : '';
    const units = [...new Set(e.fields.map((f) => f.unit).filter((u) => u && u !== 'count'))];
    const unitText = units.length ? ` [${units.join(', ')}]` : '';
    return `${e.key} · ${e.category} · ${e.rowShape}${unitText}${aliases}`;
  }).join('\n');
}
