import { describe, expect, it } from 'vitest';
import { CATALOGUE, catalogueForPrompt, isKnownMetric, resolveMetric } from './catalogue.js';
import { DIMENSIONS } from './units.js';

/** The catalogue keys docs/HEALTH-AUTO-EXPORT.md lists. */
const DOCUMENTED_KEYS = [
  'sleep_analysis',
  'heart_rate_variability',
  'resting_heart_rate',
  'walking_heart_rate_average',
  'blood_oxygen_saturation',
  'step_count',
  'apple_exercise_time',
  'mindful_minutes',
  'body_mass',
  'body_fat_percentage',
  'blood_pressure_systolic',
  'blood_pressure_diastolic',
  'workouts',
];

/** Every name of docs/HEALTH-AUTO-EXPORT.md, including the older servers' enum spellings. */
const HAE_FORMAT_NAMES =
  `active_energy basal_energy_burned apple_exercise_time apple_move_time apple_stand_hour
apple_stand_time step_count walking_running_distance cycling_distance swimming_distance
distance_downhill_snow_sports downhill_snow_sports wheelchair_distance wheelchair_push_count flights_climbed
swim_stroke_count physical_effort vo2_max cycling_cadence cycling_power cycling_speed
cycling_functional_threshold_power running_power running_speed running_stride_length
running_ground_contact_time running_vertical_oscillation weight_body_mass body_mass_index body_fat_percentage
lean_body_mass height waist_circumference heart_rate resting_heart_rate walking_heart_rate_average
walking_heart_rate heart_rate_variability cardio_recovery atrial_fibrillation_burden blood_pressure
blood_oxygen_saturation respiratory_rate forced_expiratory_volume_1 forced_expiratory_volume forced_vital_capacity
peak_expiratory_flow_rate inhaler_usage peripheral_perfusion_index walking_speed walking_step_length
walking_asymmetry_percentage walking_double_support_percentage six_minute_walking_test_distance stair_speed_up
stair_speed_down environmental_audio_exposure environmental_audio headphone_audio_exposure headphone_audio
time_in_daylight uv_exposure under_water_depth under_water_temperature electrodermal_activity
apple_sleeping_wrist_temperature body_temperature basal_body_temperature sleep_analysis breathing_disturbances
mindful_minutes blood_glucose insulin_delivery blood_alcohol_content alcohol_consumption
number_of_alcoholic_beverages number_of_times_fallen number_of_time_fallen handwashing toothbrushing
sexual_activity dietary_energy dietary_water dietary_sugar dietary_caffeine caffeine dietary_cholesterol
cholesterol dietary_biotin biotin carbohydrates protein fiber total_fat saturated_fat monounsaturated_fat
monosaturated_fat polyunsaturated_fat calcium chloride copper iron magnesium manganese niacin pantothenic_acid
phosphorus potassium riboflavin sodium thiamin zinc vitamin_b6 vitamin_c vitamin_e chromium folate selenium
vitamin_a vitamin_b12 vitamin_d vitamin_k molybdenum iodine`.split(/\s+/);

describe('HAE catalogue', () => {
  it.each(DOCUMENTED_KEYS)('knows docs/HEALTH-AUTO-EXPORT.md key %s', (key) => {
    expect(isKnownMetric(key)).toBe(true);
  });

  it.each(HAE_FORMAT_NAMES)('knows docs/HEALTH-AUTO-EXPORT.md name %s', (name) => {
    expect(isKnownMetric(name)).toBe(true);
  });

  it.each([
    ['body_mass', 'weight_body_mass'],
    ['dietary_caffeine', 'caffeine'],
    ['dietary_cholesterol', 'cholesterol'],
    ['walking_heart_rate', 'walking_heart_rate_average'],
    ['number_of_time_fallen', 'number_of_times_fallen'],
    ['monosaturated_fat', 'monounsaturated_fat'],
    ['biotin', 'dietary_biotin'],
    [' Step Count ', 'step_count'],
    ['stepCount', 'step_count'],
    ['Weight & Body Mass', 'weight_body_mass'],
    ['bodyMass', 'weight_body_mass'],
    ['Walking + Running Distance', 'walking_running_distance'],
    ['vitaminB12', 'vitamin_b12'],
    ['forcedExpiratoryVolume1', 'forced_expiratory_volume_1'],
  ])('resolves alias %j to %s', (alias, key) => {
    expect(resolveMetric(alias)?.key).toBe(key);
  });

  it('rejects names it does not know (a misspelt metric is 422)', () => {
    expect(isKnownMetric('step_cuont')).toBe(false);
    expect(isKnownMetric('')).toBe(false);
    expect(resolveMetric('weight')).toBeUndefined();
    // only a whole name in another style, never a part of one
    expect(resolveMetric('steps')).toBeUndefined();
    expect(resolveMetric('stepCounts')).toBeUndefined();
  });

  it('gives every entry a category, a kind, a canonical unit and a row shape starting with date', () => {
    for (const e of CATALOGUE) {
      expect([
        'sleep',
        'recovery',
        'activity',
        'vitals',
        'body',
        'mindfulness',
        'lifestyle',
        'medication',
      ]).toContain(e.category);
      expect(['last', 'sum', 'mean', 'max', 'any', 'sleep', 'workouts']).toContain(e.kind);
      expect(DIMENSIONS[e.dimension]).toBeDefined();
      expect(e.rowShape).toMatch(/^\{date, [a-zA-Z]/);
      expect(e.fields.length).toBeGreaterThan(0);
    }
  });

  it('has the documented row shapes', () => {
    expect(resolveMetric('heart_rate_variability')?.rowShape).toBe('{date, ms}');
    expect(resolveMetric('resting_heart_rate')?.rowShape).toBe('{date, bpm}');
    expect(resolveMetric('blood_oxygen_saturation')?.rowShape).toBe('{date, pct}');
    expect(resolveMetric('step_count')?.rowShape).toBe('{date, count}');
    expect(resolveMetric('apple_exercise_time')?.rowShape).toBe('{date, minutes}');
    expect(resolveMetric('body_mass')?.rowShape).toBe('{date, kg}');
    expect(resolveMetric('blood_pressure_systolic')?.rowShape).toBe('{date, systolic}');
    expect(resolveMetric('blood_pressure')?.rowShape).toBe('{date, systolic, diastolic}');
    expect(resolveMetric('heart_rate')?.rowShape).toBe('{date, min, avg, max}');
    expect(resolveMetric('workouts')?.rowShape).toBe(
      '{date, trained, type?, durationMin?, distanceKm?, calories?, avgHr?, maxHr?, elevationM?, startTime?}',
    );
    expect(resolveMetric('sleep_analysis')?.rowShape).toMatch(
      /^\{date, hours\?, .*bedTime\?, wakeTime\?, source\?\}$/,
    );
  });

  it('derived blood-pressure keys read the blood_pressure samples', () => {
    expect(resolveMetric('blood_pressure_diastolic')?.reads).toBe('blood_pressure');
  });

  it('lists one prompt line per metric with key, category and row shape', () => {
    const lines = catalogueForPrompt().split('\n');
    expect(lines).toHaveLength(CATALOGUE.length);
    expect(lines).toContain('weight_body_mass · body · {date, kg} [kg] (also: body_mass)');
    expect(lines).toContain('step_count · activity · {date, count}');
    expect(lines.find((l) => l.startsWith('caffeine '))).toBe(
      'caffeine · lifestyle · {date, mg} [mg] (also: dietary_caffeine)',
    );
  });
});
