/**
 * The names people read for Health Auto Export metrics ("Body weight", "Steps", "Sleep"): the
 * catalogue keys are the app's own spellings (`weight_body_mass`, `step_count`), which read badly
 * turned into words. A metric without an entry here falls back to its key in words.
 */

import { lookupTable } from '../../../common/lookup-table.js';
import { resolveMetric } from './catalogue.js';

// biome-ignore format: one line per metric reads as a table
const LABELS = lookupTable<string>({
  sleep_analysis: 'Sleep', breathing_disturbances: 'Breathing disturbances',
  heart_rate_variability: 'Heart rate variability (HRV)',
  heart_rate_variability_rmssd: 'Recovery HRV (RMSSD)', resting_heart_rate: 'Resting heart rate',
  cardio_recovery: 'Cardio recovery', step_count: 'Steps', walking_running_distance: 'Walking and running distance',
  active_energy: 'Active energy', basal_energy_burned: 'Resting energy', apple_exercise_time: 'Exercise minutes',
  apple_move_time: 'Move minutes', apple_stand_time: 'Stand minutes', apple_stand_hour: 'Stand hours',
  flights_climbed: 'Flights climbed', cycling_distance: 'Cycling distance', swimming_distance: 'Swimming distance',
  swim_stroke_count: 'Swim strokes', distance_downhill_snow_sports: 'Downhill snow sports distance',
  wheelchair_distance: 'Wheelchair distance', wheelchair_push_count: 'Wheelchair pushes',
  walking_heart_rate_average: 'Walking heart rate', vo2_max: 'VO₂ max', physical_effort: 'Physical effort',
  workout_effort_score: 'Workout effort', estimated_workout_effort_score: 'Estimated workout effort',
  walking_speed: 'Walking speed', walking_step_length: 'Step length', walking_asymmetry_percentage: 'Walking asymmetry',
  walking_double_support_percentage: 'Double support time', six_minute_walking_test_distance: 'Six-minute walk distance',
  stair_speed_up: 'Stair speed up', stair_speed_down: 'Stair speed down', cycling_cadence: 'Cycling cadence',
  cycling_power: 'Cycling power', cycling_speed: 'Cycling speed', cycling_functional_threshold_power: 'Cycling threshold power',
  running_power: 'Running power', running_speed: 'Running speed', running_stride_length: 'Running stride length',
  running_ground_contact_time: 'Ground contact time', running_vertical_oscillation: 'Vertical oscillation',
  under_water_depth: 'Underwater depth', under_water_temperature: 'Water temperature', workouts: 'Workouts',
  weight_body_mass: 'Body weight', body_mass_index: 'Body mass index (BMI)', body_fat_percentage: 'Body fat',
  lean_body_mass: 'Lean body mass', height: 'Height', waist_circumference: 'Waist', heart_rate: 'Heart rate',
  blood_pressure: 'Blood pressure', blood_pressure_systolic: 'Blood pressure (upper)',
  blood_pressure_diastolic: 'Blood pressure (lower)', blood_oxygen_saturation: 'Blood oxygen',
  respiratory_rate: 'Breathing rate', blood_glucose: 'Blood sugar', body_temperature: 'Body temperature',
  basal_body_temperature: 'Basal body temperature', apple_sleeping_wrist_temperature: 'Wrist temperature in sleep',
  atrial_fibrillation_burden: 'AFib burden', peripheral_perfusion_index: 'Perfusion index',
  electrodermal_activity: 'Skin conductance', forced_expiratory_volume_1: 'Lung volume in one second (FEV1)',
  forced_vital_capacity: 'Lung capacity (FVC)', peak_expiratory_flow_rate: 'Peak flow',
  number_of_times_fallen: 'Falls', ecg: 'ECG recordings', symptoms: 'Symptoms', state_of_mind: 'State of mind', mindful_minutes: 'Mindful minutes', environmental_audio_exposure: 'Noise around you',
  headphone_audio_exposure: 'Headphone volume', environmental_sound_reduction: 'Sound reduction',
  time_in_daylight: 'Time in daylight', uv_exposure: 'UV exposure',
  handwashing: 'Handwashing', toothbrushing: 'Toothbrushing', sexual_activity: 'Sexual activity', menstrual_flow: 'Menstrual flow',
  bleeding_during_pregnancy: 'Bleeding during pregnancy', bleeding_after_pregnancy: 'Bleeding after pregnancy',
  bleeding_after_menopause: 'Bleeding after menopause',
  intermenstrual_bleeding: 'Spotting', cycle_deviation_notifications: 'Cycle deviations', cervical_mucus_quality: 'Cervical mucus', ovulation_test: 'Ovulation tests',
  pregnancy_test: 'Pregnancy tests', progesterone_test: 'Progesterone tests',
  alcohol_consumption: 'Alcoholic drinks', blood_alcohol_content: 'Blood alcohol', dietary_energy: 'Food energy',
  dietary_water: 'Water', insulin_delivery: 'Insulin', inhaler_usage: 'Inhaler use', caffeine: 'Caffeine',
  walking_steadiness: 'Walking steadiness', walking_steadiness_notifications: 'Walking steadiness notifications',
  low_cardio_fitness_notifications: 'Low cardio fitness notifications',
  high_heart_rate_notifications: 'High heart rate notifications', low_heart_rate_notifications: 'Low heart rate notifications',
  irregular_heart_rhythm_notifications: 'Irregular rhythm notifications', sleep_apnea_notifications: 'Sleep apnea notifications',
  hypertension_notifications: 'Hypertension notifications',
  environmental_audio_exposure_notifications: 'Loud noise notifications',
  headphone_audio_exposure_notifications: 'Headphone volume notifications',
  cross_country_skiing_distance: 'Cross-country skiing distance', cross_country_skiing_speed: 'Cross-country skiing speed',
});

/**
 * The name people read for `metric` (a catalogue key, an alias, or a name the catalogue does not
 * know): the label table's entry, else the name in words (`magnesium` → "Magnesium").
 */
export function metricLabel(metric: string): string {
  const key = resolveMetric(metric)?.key ?? metric.trim().toLowerCase();
  const known = LABELS[key];
  if (known) return known;
  const words = key.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
