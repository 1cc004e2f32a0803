/**
 * The HAE metric catalogue as data (REFERENCE section 7 "Catalogue", HAE-FORMAT section 7): one
 * entry per metric under the name current real payloads use, with the older or enum-only names as
 * aliases ("Names / schema drift" pitfall), the card category, how samples of one local date
 * become one row, the canonical unit every value is converted into, and the row shape.
 *
 * Aggregation kinds (REFERENCE: `last-per-date`, `sum-per-date`, `mean-per-date`, `max-per-date`,
 * `boolean-any-per-date`, `workouts-merge-per-date`) plus `sleep`: REFERENCE lists sleep as
 * last-per-date, but a day can hold a night and a nap, and one night can arrive from several
 * sources or partially then completely; `sleep` is "latest version per night, nights and naps of
 * the wake day summed" (see aggregate.ts). Unknown metric names are kept by extraction (for
 * discovery) but have no entry here.
 */
import { DIMENSIONS, type DimensionName } from './units.js';

/** Card categories (REFERENCE section 2, `meta.category`). */
export type HaeCategory = 'sleep' | 'recovery' | 'activity' | 'vitals' | 'body' | 'mindfulness' | 'lifestyle' | 'medication';

/** How the samples of one local date become one row (see the module comment). */
export type AggregationKind = 'last' | 'sum' | 'mean' | 'max' | 'any' | 'sleep' | 'workouts';

/** How a payload point is read (HAE-FORMAT section 4 "Special shapes"). */
export type PointShape =
  | 'qty' // {date, qty}
  | 'minAvgMax' // heart_rate {Min, Avg, Max}
  | 'bloodPressure' // {systolic, diastolic}
  | 'glucose' // {qty, mealTime}; the unit names the field (mg/dL vs mmol/L kept apart)
  | 'counts' // sexual_activity {Unspecified, Protection Used, Protection Not Used}
  | 'sleep' // section 5
  | 'workouts'; // section 6, the `workouts` array

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
   * Values ≤ 1 arriving in `%` are fractions and are multiplied by 100 (REFERENCE: "fraction →
   * percent"; pitfall "SpO2 0.94 next to 94.5"). Only set where a real percentage ≤ 1 cannot
   * happen (SpO2, body fat, double support); never for walking asymmetry or blood alcohol.
   */
  readonly fractionToPercent?: boolean;
  /** Point fields kept as text in the sample (e.g. `mealTime`). */
  readonly textFields?: readonly string[];
  /** `{date, kg}`: the row shape as text (REFERENCE section 7 "Row"). */
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
  textFields?: string[];
}

function entry(spec: EntrySpec): CatalogueEntry {
  const unit = DIMENSIONS[spec.dimension].canonical;
  const fields: RowField[] = (spec.fields ?? [{ name: spec.field ?? 'value', decimals: spec.decimals ?? 1 }]).map(
    (f) => ({ ...f, unit: f.name === 'mgdl' ? 'mg/dL' : f.name === 'mmol' ? 'mmol/L' : unit }),
  );
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
    ...(spec.fractionToPercent ? { fractionToPercent: true } : {}),
    ...(spec.textFields ? { textFields: spec.textFields } : {}),
    rowShape: `{date, ${shapeText}}`,
  };
}

/** Sum-per-date nutrient in grams, milligrams or micrograms (HAE-FORMAT section 7, last rows). */
function nutrient(key: string, dimension: 'g' | 'mg' | 'mcg', aliases?: string[]): CatalogueEntry {
  return entry({ key, aliases, category: 'lifestyle', kind: 'sum', dimension, field: dimension, decimals: 1 });
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

/**
 * Every metric of REFERENCE section 7 and HAE-FORMAT section 7, in catalogue order (roughly the
 * HAE "Supported Data" groups). Decimals: the precision a person reads the value at (P18).
 */
export const CATALOGUE: readonly CatalogueEntry[] = [
  // Sleep (HAE-FORMAT section 5)
  entry({ key: 'sleep_analysis', category: 'sleep', kind: 'sleep', dimension: 'hr', shape: 'sleep', fields: SLEEP_FIELDS }),
  entry({ key: 'breathing_disturbances', category: 'sleep', kind: 'last', dimension: 'perHour', field: 'perHour' }),
  // Recovery
  entry({ key: 'heart_rate_variability', category: 'recovery', kind: 'mean', dimension: 'ms', field: 'ms' }),
  entry({ key: 'resting_heart_rate', category: 'recovery', kind: 'last', dimension: 'perMin', field: 'bpm' }),
  entry({ key: 'cardio_recovery', category: 'recovery', kind: 'last', dimension: 'perMin', field: 'bpm' }),
  // Activity
  entry({ key: 'step_count', category: 'activity', kind: 'sum', dimension: 'count', field: 'count', decimals: 0 }),
  entry({ key: 'walking_running_distance', category: 'activity', kind: 'sum', dimension: 'km', field: 'km', decimals: 2 }),
  entry({ key: 'active_energy', category: 'activity', kind: 'sum', dimension: 'kcal', field: 'kcal', decimals: 0 }),
  entry({ key: 'basal_energy_burned', category: 'activity', kind: 'sum', dimension: 'kcal', field: 'kcal', decimals: 0 }),
  entry({ key: 'apple_exercise_time', category: 'activity', kind: 'sum', dimension: 'min', field: 'minutes' }),
  entry({ key: 'apple_move_time', category: 'activity', kind: 'sum', dimension: 'min', field: 'minutes' }),
  entry({ key: 'apple_stand_time', category: 'activity', kind: 'sum', dimension: 'min', field: 'minutes' }),
  entry({ key: 'apple_stand_hour', category: 'activity', kind: 'sum', dimension: 'count', field: 'hours', decimals: 0 }),
  entry({ key: 'flights_climbed', category: 'activity', kind: 'sum', dimension: 'count', field: 'count', decimals: 0 }),
  entry({ key: 'cycling_distance', category: 'activity', kind: 'sum', dimension: 'km', field: 'km', decimals: 2 }),
  entry({ key: 'swimming_distance', category: 'activity', kind: 'sum', dimension: 'm', field: 'm', decimals: 0 }),
  entry({ key: 'swim_stroke_count', category: 'activity', kind: 'sum', dimension: 'count', field: 'count', decimals: 0 }),
  entry({ key: 'distance_downhill_snow_sports', aliases: ['downhill_snow_sports'], category: 'activity', kind: 'sum', dimension: 'km', field: 'km', decimals: 2 }),
  entry({ key: 'wheelchair_distance', category: 'activity', kind: 'sum', dimension: 'km', field: 'km', decimals: 2 }),
  entry({ key: 'wheelchair_push_count', category: 'activity', kind: 'sum', dimension: 'count', field: 'count', decimals: 0 }),
  entry({ key: 'walking_heart_rate_average', aliases: ['walking_heart_rate'], category: 'activity', kind: 'last', dimension: 'perMin', field: 'bpm' }),
  entry({ key: 'vo2_max', category: 'activity', kind: 'last', dimension: 'vo2', field: 'vo2max' }),
  entry({ key: 'physical_effort', category: 'activity', kind: 'mean', dimension: 'met', field: 'met' }),
  entry({ key: 'walking_speed', category: 'activity', kind: 'mean', dimension: 'kmh', field: 'kmh', decimals: 2 }),
  entry({ key: 'walking_step_length', category: 'activity', kind: 'mean', dimension: 'cm', field: 'cm' }),
  entry({ key: 'walking_asymmetry_percentage', category: 'activity', kind: 'mean', dimension: 'pct', field: 'pct' }),
  entry({ key: 'walking_double_support_percentage', category: 'activity', kind: 'mean', dimension: 'pct', field: 'pct', fractionToPercent: true }),
  entry({ key: 'six_minute_walking_test_distance', category: 'activity', kind: 'last', dimension: 'm', field: 'm', decimals: 0 }),
  entry({ key: 'stair_speed_up', category: 'activity', kind: 'mean', dimension: 'mps', field: 'mps', decimals: 2 }),
  entry({ key: 'stair_speed_down', category: 'activity', kind: 'mean', dimension: 'mps', field: 'mps', decimals: 2 }),
  entry({ key: 'cycling_cadence', category: 'activity', kind: 'mean', dimension: 'perMin', field: 'rpm', decimals: 0 }),
  entry({ key: 'cycling_power', category: 'activity', kind: 'mean', dimension: 'watt', field: 'watts', decimals: 0 }),
  entry({ key: 'cycling_speed', category: 'activity', kind: 'mean', dimension: 'kmh', field: 'kmh' }),
  entry({ key: 'cycling_functional_threshold_power', category: 'activity', kind: 'last', dimension: 'watt', field: 'watts', decimals: 0 }),
  entry({ key: 'running_power', category: 'activity', kind: 'mean', dimension: 'watt', field: 'watts', decimals: 0 }),
  entry({ key: 'running_speed', category: 'activity', kind: 'mean', dimension: 'kmh', field: 'kmh', decimals: 2 }),
  entry({ key: 'running_stride_length', category: 'activity', kind: 'mean', dimension: 'm', field: 'm', decimals: 2 }),
  entry({ key: 'running_ground_contact_time', category: 'activity', kind: 'mean', dimension: 'ms', field: 'ms', decimals: 0 }),
  entry({ key: 'running_vertical_oscillation', category: 'activity', kind: 'mean', dimension: 'cm', field: 'cm' }),
  entry({ key: 'under_water_depth', category: 'activity', kind: 'max', dimension: 'm', field: 'm' }),
  entry({ key: 'under_water_temperature', category: 'activity', kind: 'mean', dimension: 'degC', field: 'degC' }),
  entry({ key: 'workouts', category: 'activity', kind: 'workouts', dimension: 'scalar', shape: 'workouts', fields: WORKOUT_FIELDS }),
  // Body
  entry({ key: 'weight_body_mass', aliases: ['body_mass'], category: 'body', kind: 'last', dimension: 'kg', field: 'kg', decimals: 2 }),
  entry({ key: 'body_mass_index', category: 'body', kind: 'last', dimension: 'scalar', field: 'bmi' }),
  entry({ key: 'body_fat_percentage', category: 'body', kind: 'last', dimension: 'pct', field: 'pct', fractionToPercent: true }),
  entry({ key: 'lean_body_mass', category: 'body', kind: 'last', dimension: 'kg', field: 'kg', decimals: 2 }),
  entry({ key: 'height', category: 'body', kind: 'last', dimension: 'cm', field: 'cm' }),
  entry({ key: 'waist_circumference', category: 'body', kind: 'last', dimension: 'cm', field: 'cm' }),
  // Vitals
  entry({
    key: 'heart_rate',
    category: 'vitals',
    kind: 'mean',
    dimension: 'perMin',
    shape: 'minAvgMax',
    fields: [
      { name: 'min', decimals: 0, reduce: 'min' },
      { name: 'avg', decimals: 1 },
      { name: 'max', decimals: 0, reduce: 'max' },
    ],
  }),
  entry({
    key: 'blood_pressure',
    category: 'vitals',
    kind: 'last',
    dimension: 'mmHg',
    shape: 'bloodPressure',
    fields: [
      { name: 'systolic', decimals: 0 },
      { name: 'diastolic', decimals: 0 },
    ],
  }),
  entry({ key: 'blood_pressure_systolic', category: 'vitals', kind: 'last', dimension: 'mmHg', reads: 'blood_pressure', field: 'systolic', decimals: 0 }),
  entry({ key: 'blood_pressure_diastolic', category: 'vitals', kind: 'last', dimension: 'mmHg', reads: 'blood_pressure', field: 'diastolic', decimals: 0 }),
  entry({ key: 'blood_oxygen_saturation', category: 'vitals', kind: 'mean', dimension: 'pct', field: 'pct', fractionToPercent: true }),
  entry({ key: 'respiratory_rate', category: 'vitals', kind: 'mean', dimension: 'perMin', field: 'breathsPerMin' }),
  entry({
    key: 'blood_glucose',
    category: 'vitals',
    kind: 'mean',
    dimension: 'mgdl',
    shape: 'glucose',
    textFields: ['mealTime'],
    fields: [
      { name: 'mgdl', decimals: 0, optional: true },
      { name: 'mmol', decimals: 1, optional: true },
    ],
  }),
  entry({ key: 'body_temperature', category: 'vitals', kind: 'last', dimension: 'degC', field: 'degC', decimals: 2 }),
  entry({ key: 'basal_body_temperature', category: 'vitals', kind: 'last', dimension: 'degC', field: 'degC', decimals: 2 }),
  entry({ key: 'apple_sleeping_wrist_temperature', category: 'vitals', kind: 'last', dimension: 'degC', field: 'degC', decimals: 2 }),
  entry({ key: 'atrial_fibrillation_burden', category: 'vitals', kind: 'last', dimension: 'pct', field: 'pct' }),
  entry({ key: 'peripheral_perfusion_index', category: 'vitals', kind: 'mean', dimension: 'pct', field: 'pct', decimals: 2 }),
  entry({ key: 'electrodermal_activity', category: 'vitals', kind: 'mean', dimension: 'uS', field: 'uS', decimals: 2 }),
  entry({ key: 'forced_expiratory_volume_1', aliases: ['forced_expiratory_volume'], category: 'vitals', kind: 'last', dimension: 'l', field: 'liters', decimals: 2 }),
  entry({ key: 'forced_vital_capacity', category: 'vitals', kind: 'last', dimension: 'l', field: 'liters', decimals: 2 }),
  entry({ key: 'peak_expiratory_flow_rate', category: 'vitals', kind: 'last', dimension: 'lPerMin', field: 'litersPerMin', decimals: 0 }),
  entry({ key: 'number_of_times_fallen', aliases: ['number_of_time_fallen'], category: 'vitals', kind: 'sum', dimension: 'count', field: 'count', decimals: 0 }),
  // Mindfulness
  entry({ key: 'mindful_minutes', category: 'mindfulness', kind: 'sum', dimension: 'min', field: 'minutes' }),
  // Lifestyle: hearing, daylight, hygiene, alcohol, nutrition
  entry({ key: 'environmental_audio_exposure', aliases: ['environmental_audio'], category: 'lifestyle', kind: 'mean', dimension: 'db', field: 'db' }),
  entry({ key: 'headphone_audio_exposure', aliases: ['headphone_audio'], category: 'lifestyle', kind: 'mean', dimension: 'db', field: 'db' }),
  entry({ key: 'time_in_daylight', category: 'lifestyle', kind: 'sum', dimension: 'min', field: 'minutes' }),
  entry({ key: 'uv_exposure', category: 'lifestyle', kind: 'max', dimension: 'scalar', field: 'index' }),
  entry({ key: 'handwashing', category: 'lifestyle', kind: 'sum', dimension: 's', field: 'seconds', decimals: 0, textFields: ['value'] }),
  entry({ key: 'toothbrushing', category: 'lifestyle', kind: 'sum', dimension: 's', field: 'seconds', decimals: 0, textFields: ['value'] }),
  entry({
    key: 'sexual_activity',
    category: 'lifestyle',
    kind: 'any',
    dimension: 'count',
    shape: 'counts',
    fields: [{ name: 'logged', decimals: 0 }],
  }),
  entry({ key: 'alcohol_consumption', aliases: ['number_of_alcoholic_beverages'], category: 'lifestyle', kind: 'sum', dimension: 'count', field: 'drinks' }),
  entry({ key: 'blood_alcohol_content', category: 'lifestyle', kind: 'max', dimension: 'pct', field: 'pct', decimals: 3 }),
  entry({ key: 'dietary_energy', category: 'lifestyle', kind: 'sum', dimension: 'kcal', field: 'kcal', decimals: 0 }),
  entry({ key: 'dietary_water', category: 'lifestyle', kind: 'sum', dimension: 'ml', field: 'ml', decimals: 0 }),
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
  ...[
    'calcium', 'chloride', 'copper', 'iron', 'magnesium', 'manganese', 'niacin', 'pantothenic_acid',
    'phosphorus', 'potassium', 'riboflavin', 'sodium', 'thiamin', 'zinc', 'vitamin_b6', 'vitamin_c', 'vitamin_e',
  ].map((k) => nutrient(k, 'mg')),
  ...['chromium', 'folate', 'selenium', 'vitamin_a', 'vitamin_b12', 'vitamin_d', 'vitamin_k', 'molybdenum', 'iodine'].map((k) =>
    nutrient(k, 'mcg'),
  ),
  // Medication
  entry({ key: 'insulin_delivery', category: 'medication', kind: 'sum', dimension: 'iu', field: 'iu', textFields: ['reason'] }),
  entry({ key: 'inhaler_usage', category: 'medication', kind: 'sum', dimension: 'count', field: 'count', decimals: 0 }),
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
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * The catalogue entry for a metric name or alias (`body_mass` → the `weight_body_mass` entry,
 * `dietary_caffeine` → `caffeine`), or undefined for a name the catalogue does not know.
 */
export function resolveMetric(name: string): CatalogueEntry | undefined {
  if (typeof name !== 'string') return undefined;
  return BY_NAME.get(nameKey(name));
}

/** True when `name` is a catalogue key or alias (the `meta.ingest.metric` check, REFERENCE 11.22). */
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
