/**
 * The readings of a body a person or a sensor can give, per metric (its sample metric, `reads`)
 * and field, in the canonical unit (plausible.ts): wide enough for every real reading of
 * newborns, athletes and the very ill, narrow enough that a sensor glitch (a heart rate of
 * 2500), a fraction read as a percentage twice (blood oxygen 9700 %) or a value in another unit
 * than labelled (98.6 °F sent as °C) is caught. Metrics counted or summed have no upper bound
 * here (a long day has many steps); they may not be negative (plausible.ts).
 */

/** One field's range: `name` says what it is in a warning. */
export interface PlausibleRange {
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

function r(name: string, min: number, max: number): PlausibleRange {
  return { name, min, max };
}

const HEART = r('heart rate', 20, 300);
const TEMPERATURE = r('body temperature', -20, 45);
const PERCENT = (name: string) => r(name, 0, 100);

/** Per sample metric, per field: the plausible range. */
export const PLAUSIBLE_RANGES: Readonly<Record<string, Readonly<Record<string, PlausibleRange>>>> = {
  heart_rate: { min: HEART, avg: HEART, max: HEART },
  resting_heart_rate: { bpm: HEART },
  walking_heart_rate_average: { bpm: HEART },
  cardio_recovery: { bpm: r('heart rate recovery', 0, 250) },
  heart_rate_variability: { ms: r('heart rate variability', 0, 1000) },
  heart_rate_variability_rmssd: { ms: r('heart rate variability', 0, 1000) },
  respiratory_rate: { breathsPerMin: r('respiratory rate', 1, 100) },
  blood_oxygen_saturation: { pct: r('blood oxygen', 0, 100) },
  blood_pressure: { systolic: r('systolic pressure', 30, 300), diastolic: r('diastolic pressure', 10, 250) },
  blood_glucose: { mgdl: r('blood glucose', 5, 2000), mmol: r('blood glucose', 0.3, 110) },
  // some apps write a deviation from the usual temperature here: no lower bound a deviation passes
  body_temperature: { degC: TEMPERATURE },
  basal_body_temperature: { degC: TEMPERATURE },
  vo2_max: { vo2max: r('VO2 max', 1, 100) },
  weight_body_mass: { kg: r('body weight', 0.2, 700) },
  lean_body_mass: { kg: r('lean body mass', 0.2, 700) },
  body_mass_index: { bmi: r('body mass index', 5, 250) },
  height: { cm: r('height', 20, 300) },
  body_fat_percentage: { pct: PERCENT('body fat') },
  walking_asymmetry_percentage: { pct: PERCENT('walking asymmetry') },
  walking_double_support_percentage: { pct: PERCENT('double support') },
  atrial_fibrillation_burden: { pct: PERCENT('atrial fibrillation burden') },
  peripheral_perfusion_index: { pct: PERCENT('perfusion index') },
  blood_alcohol_content: { pct: PERCENT('blood alcohol') },
  environmental_audio_exposure: { db: r('sound level', 0, 200) },
  headphone_audio_exposure: { db: r('sound level', 0, 200) },
  environmental_sound_reduction: { db: r('sound reduction', 0, 200) },
  // a state of mind's valence runs from -1 (very unpleasant) to 1 (very pleasant)
  state_of_mind: { valence: r('state of mind valence', -1, 1) },
  // the watch's effort score of a workout, rated or estimated, runs from 1 (easy) to 10 (all out)
  workout_effort_score: { score: r('workout effort score', 0, 10) },
  estimated_workout_effort_score: { score: r('workout effort score', 0, 10) },
  // more than any 24-hour race burns: a value in another unit or a glitch (1e12)
  workouts: { avgHr: HEART, maxHr: HEART, calories: r('energy (kcal)', 0, 30_000) },
};
