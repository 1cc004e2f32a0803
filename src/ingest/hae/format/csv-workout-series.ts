/**
 * A workout's own series in Health Auto Export's CSV export. With workout metrics included, the
 * app writes each series of a workout (its minutes of energy, steps, distance, its heart rate, its
 * route) as a file of its own, named `<workout>-<series>-<yyyyMMdd_HHmmss>.csv`
 * (`Outdoor Run-Heart Rate-20260711_070000.csv`); the heart rate file is headed by the parts alone
 * (`Date/Time,Min (count/min),Max (count/min),Avg (count/min),Context,Source`).
 *
 * These are the workout's series, as the JSON export's `activeEnergy[]`, `stepCount[]` and
 * `heartRateData[]` are, and cover only the workout's minutes: read as the day's metrics they made
 * the workout's 22 kcal the day's energy, and the heart rate file's columns metrics named min, max,
 * avg and context. The day's values come from the Health Metrics file, the workout's from the
 * Workouts file.
 */

/** `<workout>-<series>-<yyyyMMdd_HHmmss>.csv`, the name the app gives a workout's series file. */
const SERIES_FILE_NAME = /^.+-.+-\d{8}_\d{6}\.csv$/i;

/** Columns named by a part alone (no metric before it): a series of one workout's heart rate. */
const BARE_PARTS = new Set(['min', 'max', 'avg']);

/** Columns of a series file beside its values: who measured them, and the heart rate's context. */
const BESIDE_VALUES = new Set(['source', 'context']);

/**
 * True when a CSV file is a workout's own series: headed by bare Min/Max/Avg columns
 * (`columnNames`: the header's names without their units, lower case), or named as the app names
 * one (`fileName`, the file's name in the multipart body, undefined for a body that is the file
 * itself) and holding one series (a file of dated values in two or more metric columns is the
 * Health Metrics file, whatever its name).
 */
export function isWorkoutSeriesFile(fileName: string | undefined, columnNames: readonly string[]): boolean {
  const values = columnNames.slice(1).filter((n) => n !== '' && !BESIDE_VALUES.has(n));
  if (values.some((n) => BARE_PARTS.has(n))) return true;
  if (fileName === undefined || !SERIES_FILE_NAME.test(fileName.trim())) return false;
  const dated = columnNames[0] === 'date/time' || columnNames[0] === 'date';
  return !dated || values.length <= 1;
}

/** The warning naming the series files left out (`labels`: their names, or their headers). */
export function workoutSeriesWarning(labels: readonly string[]): string {
  return `CSV files of a workout's own series, not read as the day's values (the Health Metrics file holds those): ${labels.join(', ')}`;
}
