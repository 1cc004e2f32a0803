/**
 * HealthKit's type identifiers (`HKQuantityTypeIdentifierStepCount`,
 * `HKCategoryTypeIdentifierSleepAnalysis`) → catalogue metrics: one table for the two places they
 * arrive, an Apple Health `export.xml` (each record's `type`, apple-health/records.ts) and a push
 * whose metric blocks are named by the identifier, as scripts and other exporters reading
 * HealthKit name them (catalogue.ts resolveMetric).
 */

/** The prefix of quantity types. */
export const QUANTITY_PREFIX = 'HKQuantityTypeIdentifier';
/** The prefix of category types. */
export const CATEGORY_PREFIX = 'HKCategoryTypeIdentifier';

/** Quantity types (after the `HKQuantityTypeIdentifier` prefix) → catalogue metric key. */
const QUANTITY: Record<string, string> = {
  StepCount: 'step_count',
  DistanceWalkingRunning: 'walking_running_distance',
  DistanceCycling: 'cycling_distance',
  DistanceSwimming: 'swimming_distance',
  DistanceWheelchair: 'wheelchair_distance',
  DistanceDownhillSnowSports: 'distance_downhill_snow_sports',
  PushCount: 'wheelchair_push_count',
  SwimmingStrokeCount: 'swim_stroke_count',
  FlightsClimbed: 'flights_climbed',
  ActiveEnergyBurned: 'active_energy',
  BasalEnergyBurned: 'basal_energy_burned',
  AppleExerciseTime: 'apple_exercise_time',
  AppleMoveTime: 'apple_move_time',
  AppleStandTime: 'apple_stand_time',
  HeartRate: 'heart_rate',
  RestingHeartRate: 'resting_heart_rate',
  WalkingHeartRateAverage: 'walking_heart_rate_average',
  HeartRateVariabilitySDNN: 'heart_rate_variability',
  HeartRateVariabilityRMSSD: 'heart_rate_variability_rmssd',
  HeartRateRecoveryOneMinute: 'cardio_recovery',
  VO2Max: 'vo2_max',
  OxygenSaturation: 'blood_oxygen_saturation',
  RespiratoryRate: 'respiratory_rate',
  BodyTemperature: 'body_temperature',
  BasalBodyTemperature: 'basal_body_temperature',
  AppleSleepingWristTemperature: 'apple_sleeping_wrist_temperature',
  BloodGlucose: 'blood_glucose',
  BodyMass: 'weight_body_mass',
  BodyMassIndex: 'body_mass_index',
  BodyFatPercentage: 'body_fat_percentage',
  LeanBodyMass: 'lean_body_mass',
  Height: 'height',
  WaistCircumference: 'waist_circumference',
  WalkingSpeed: 'walking_speed',
  WalkingStepLength: 'walking_step_length',
  WalkingAsymmetryPercentage: 'walking_asymmetry_percentage',
  WalkingDoubleSupportPercentage: 'walking_double_support_percentage',
  SixMinuteWalkTestDistance: 'six_minute_walking_test_distance',
  StairAscentSpeed: 'stair_speed_up',
  StairDescentSpeed: 'stair_speed_down',
  RunningPower: 'running_power',
  RunningSpeed: 'running_speed',
  RunningStrideLength: 'running_stride_length',
  RunningGroundContactTime: 'running_ground_contact_time',
  RunningVerticalOscillation: 'running_vertical_oscillation',
  CyclingCadence: 'cycling_cadence',
  CyclingPower: 'cycling_power',
  CyclingSpeed: 'cycling_speed',
  CyclingFunctionalThresholdPower: 'cycling_functional_threshold_power',
  PhysicalEffort: 'physical_effort',
  WorkoutEffortScore: 'workout_effort_score',
  EstimatedWorkoutEffortScore: 'estimated_workout_effort_score',
  EnvironmentalAudioExposure: 'environmental_audio_exposure',
  HeadphoneAudioExposure: 'headphone_audio_exposure',
  EnvironmentalSoundReduction: 'environmental_sound_reduction',
  TimeInDaylight: 'time_in_daylight',
  UVExposure: 'uv_exposure',
  NumberOfTimesFallen: 'number_of_times_fallen',
  NumberOfAlcoholicBeverages: 'alcohol_consumption',
  BloodAlcoholContent: 'blood_alcohol_content',
  PeripheralPerfusionIndex: 'peripheral_perfusion_index',
  ElectrodermalActivity: 'electrodermal_activity',
  ForcedExpiratoryVolume1: 'forced_expiratory_volume_1',
  ForcedVitalCapacity: 'forced_vital_capacity',
  PeakExpiratoryFlowRate: 'peak_expiratory_flow_rate',
  InhalerUsage: 'inhaler_usage',
  InsulinDelivery: 'insulin_delivery',
  UnderwaterDepth: 'under_water_depth',
  WaterTemperature: 'under_water_temperature',
  AtrialFibrillationBurden: 'atrial_fibrillation_burden',
  AppleWalkingSteadiness: 'walking_steadiness',
  DistanceRowing: 'rowing_distance',
  DistancePaddleSports: 'paddle_sports_distance',
  DistanceCrossCountrySkiing: 'cross_country_skiing_distance',
  DistanceSkatingSports: 'skating_sports_distance',
  RowingSpeed: 'rowing_speed',
  PaddleSportsSpeed: 'paddle_sports_speed',
  CrossCountrySkiingSpeed: 'cross_country_skiing_speed',
  AppleSleepingBreathingDisturbances: 'breathing_disturbances',
  DietaryWater: 'dietary_water',
  DietaryCaffeine: 'caffeine',
  DietaryCholesterol: 'cholesterol',
  DietaryEnergyConsumed: 'dietary_energy',
  DietarySugar: 'dietary_sugar',
  DietaryBiotin: 'dietary_biotin',
  DietaryCarbohydrates: 'carbohydrates',
  DietaryProtein: 'protein',
  DietaryFiber: 'fiber',
  DietaryFatTotal: 'total_fat',
  DietaryFatSaturated: 'saturated_fat',
  DietaryFatMonounsaturated: 'monounsaturated_fat',
  DietaryFatPolyunsaturated: 'polyunsaturated_fat',
  DietaryPantothenicAcid: 'pantothenic_acid',
  DietaryVitaminA: 'vitamin_a',
  DietaryVitaminB6: 'vitamin_b6',
  DietaryVitaminB12: 'vitamin_b12',
  DietaryVitaminC: 'vitamin_c',
  DietaryVitaminD: 'vitamin_d',
  DietaryVitaminE: 'vitamin_e',
  DietaryVitaminK: 'vitamin_k',
};
for (const n of [
  'Calcium',
  'Chloride',
  'Copper',
  'Iron',
  'Magnesium',
  'Manganese',
  'Niacin',
  'Phosphorus',
  'Potassium',
  'Riboflavin',
  'Sodium',
  'Thiamin',
  'Zinc',
  'Chromium',
  'Folate',
  'Selenium',
  'Molybdenum',
  'Iodine',
]) {
  QUANTITY[`Dietary${n}`] = n.toLowerCase();
}

/**
 * Category types (after the `HKCategoryTypeIdentifier` prefix) with a metric: sleep stages,
 * sessions and events whose length is the value (mindful minutes, handwashing and toothbrushing
 * seconds), the stand hours, sexual activity (a day with one is logged), cycle tracking
 * (cycle-tracking.ts).
 */
const CATEGORY: Record<string, string> = {
  SleepAnalysis: 'sleep_analysis',
  MindfulSession: 'mindful_minutes',
  AppleStandHour: 'apple_stand_hour',
  HandwashingEvent: 'handwashing',
  ToothbrushingEvent: 'toothbrushing',
  SexualActivity: 'sexual_activity',
  MenstrualFlow: 'menstrual_flow',
  IntermenstrualBleeding: 'intermenstrual_bleeding',
  BleedingDuringPregnancy: 'bleeding_during_pregnancy',
  BleedingAfterPregnancy: 'bleeding_after_pregnancy',
  BleedingAfterMenopause: 'bleeding_after_menopause',
  CervicalMucusQuality: 'cervical_mucus_quality',
  OvulationTestResult: 'ovulation_test',
  PregnancyTestResult: 'pregnancy_test',
  ProgesteroneTestResult: 'progesterone_test',
};

/**
 * Category types of the notifications the watch or phone gave (one record each, counted per day),
 * after the `HKCategoryTypeIdentifier` prefix.
 */
const NOTIFICATION: Record<string, string> = {
  HighHeartRateEvent: 'high_heart_rate_notifications',
  LowHeartRateEvent: 'low_heart_rate_notifications',
  IrregularHeartRhythmEvent: 'irregular_heart_rhythm_notifications',
  // the watch's hypertension notifications (iOS 26.2)
  HypertensionEvent: 'hypertension_notifications',
  AppleWalkingSteadinessEvent: 'walking_steadiness_notifications',
  LowCardioFitnessEvent: 'low_cardio_fitness_notifications',
  SleepApneaEvent: 'sleep_apnea_notifications',
  // environmental audio exposure events keep the identifier of their first name
  AudioExposureEvent: 'environmental_audio_exposure_notifications',
  EnvironmentalAudioExposureEvent: 'environmental_audio_exposure_notifications',
  HeadphoneAudioExposureEvent: 'headphone_audio_exposure_notifications',
  // the cycle deviations the Health app detects from the periods logged (iOS 16 on)
  IrregularMenstrualCycles: 'cycle_deviation_notifications',
  InfrequentMenstrualCycles: 'cycle_deviation_notifications',
  ProlongedMenstrualPeriods: 'cycle_deviation_notifications',
  PersistentIntermenstrualBleeding: 'cycle_deviation_notifications',
};

/** The notification identifiers with their metric, as Apple writes the identifier. */
export const NOTIFICATION_TYPES: ReadonlyMap<string, string> = new Map(
  Object.entries(NOTIFICATION).map(([t, m]): [string, string] => [`${CATEGORY_PREFIX}${t}`, m]),
);

/**
 * Each half of a blood pressure reading is a quantity type of its own; the catalogue reads a half
 * alone into its field of `blood_pressure` (an export joins the two halves of one reading itself).
 */
const PRESSURE_HALVES: Record<string, string> = {
  BloodPressureSystolic: 'blood_pressure_systolic',
  BloodPressureDiastolic: 'blood_pressure_diastolic',
};

/** Every identifier with its metric, as Apple writes the identifier. */
export const HEALTHKIT_TYPES: ReadonlyMap<string, string> = new Map<string, string>([
  ...Object.entries({ ...QUANTITY, ...PRESSURE_HALVES }).map(([t, m]): [string, string] => [
    `${QUANTITY_PREFIX}${t}`,
    m,
  ]),
  ...Object.entries(CATEGORY).map(([t, m]): [string, string] => [`${CATEGORY_PREFIX}${t}`, m]),
  ...NOTIFICATION_TYPES,
]);

/** A name's letters and digits in lower case: `Swimming Stroke Count` and `SwimmingStrokeCount` alike. */
function lettersOf(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** HEALTHKIT_TYPES by the identifier's letters and digits, with its prefix and without it. */
const BY_LOWER = new Map<string, string>();
for (const [type, metric] of HEALTHKIT_TYPES) {
  BY_LOWER.set(lettersOf(type), metric);
  const bare = lettersOf(type.replace(/^HK(?:Quantity|Category)TypeIdentifier/, ''));
  if (!BY_LOWER.has(bare)) BY_LOWER.set(bare, metric);
}

/**
 * The catalogue key of a metric named by its HealthKit identifier, in any letter case, with its
 * `HKQuantityTypeIdentifier` / `HKCategoryTypeIdentifier` prefix or without it, also written as
 * words (`HKQuantityTypeIdentifierActiveEnergyBurned`, `activeenergyburned` → `active_energy`;
 * `Swimming Stroke Count`, `Push Count`, as a CSV export or a script heads its column); a half
 * of blood pressure names its field's metric (`blood_pressure_systolic`). Undefined for any other
 * name.
 */
export function healthKitMetric(name: string): string | undefined {
  return BY_LOWER.get(lettersOf(name));
}
