/**
 * Symptoms a person logs in the Health app (headache, fatigue, nausea...): HealthKit keeps each
 * as a category sample of its own type (`HKCategoryTypeIdentifierHeadache`) whose value says how
 * bad it was, or that it was not there. Both places they arrive, an Apple Health export's records
 * and the `symptoms` section of a Health Auto Export push, become points of one metric,
 * `symptoms`: one point per symptom felt, named in its `symptom` text; the day's row counts them.
 *
 * A symptom logged as absent (`Not Present`, HealthKit's `…SeverityNotPresent` or
 * `…PresenceNotPresent`, an appetite with `No Change`) is a record that the person did not have
 * it, so it is never counted as one.
 */

/** The symptom types of HealthKit (after the `HKCategoryTypeIdentifier` prefix). */
export const SYMPTOM_TYPES: readonly string[] = [
  'AbdominalCramps',
  'Acne',
  'AppetiteChanges',
  'BladderIncontinence',
  'Bloating',
  'BreastPain',
  'ChestTightnessOrPain',
  'Chills',
  'Constipation',
  'Coughing',
  'Diarrhea',
  'Dizziness',
  'DrySkin',
  'Fainting',
  'Fatigue',
  'Fever',
  'GeneralizedBodyAche',
  'HairLoss',
  'Headache',
  'Heartburn',
  'HotFlashes',
  'LossOfSmell',
  'LossOfTaste',
  'LowerBackPain',
  'MemoryLapse',
  'MoodChanges',
  'Nausea',
  'NightSweats',
  'PelvicPain',
  'RapidPoundingOrFlutteringHeartbeat',
  'RunnyNose',
  'ShortnessOfBreath',
  'SinusCongestion',
  'SkippedHeartbeat',
  'SleepChanges',
  'SoreThroat',
  'VaginalDryness',
  'Vomiting',
  'Wheezing',
];

/** The metric symptoms fill. */
export const SYMPTOMS_METRIC = 'symptoms';

/** `LowerBackPain` → `Lower Back Pain`, the name the Health app shows. */
export function symptomName(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** A value's letters in lower case: `Not Present`, `not_present` and `HKCategoryValueSeverityNotPresent` end alike. */
function letters(value: string): string {
  return value.toLowerCase().replace(/[^a-z]/g, '');
}

/**
 * Whether a symptom's value says it was felt: true for a severity (`Mild`, `Moderate`, `Severe`,
 * `Unspecified`, `Present`, as HealthKit's constant or as words), an appetite that changed, or no
 * value at all (a symptom logged without one); false when it says the symptom was absent; undefined
 * for a value Klebb does not know (left out with a warning by the caller).
 */
export function symptomFelt(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string') return undefined;
  const v = letters(value).replace(/^hkcategoryvalue(severity|presence|appetitechanges)?/, '');
  if (v === 'notpresent' || v === 'nochange' || v === 'absent' || v === 'none') return false;
  if (['unspecified', 'mild', 'moderate', 'severe', 'present', 'decreased', 'increased'].includes(v))
    return true;
  return undefined;
}
