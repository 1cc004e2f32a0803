/**
 * Medication doses logged in the Health app (iOS 26), as Health Auto Export sends them in its
 * `medications` section: one entry per scheduled or logged dose, `{displayText, start, status,
 * dosage, ...}`. They fill the `medications` metric, whose day counts the doses `taken` and
 * `skipped`. The entry's `dosage` is not read: the app writes 1 for a skipped dose too, so it does
 * not tell what was taken. A dose neither taken nor skipped (not logged, not answered, snoozed)
 * is no dose and is left out, said in the push's warnings.
 */

/** The metric doses fill. */
export const MEDICATIONS_METRIC = 'medications';

/**
 * The app writes a dose's status in the phone's language (`Tomada`, `Omitida` on a Spanish phone):
 * the words for taken and skipped, letters only, in lower case. A word not listed is no dose
 * (left out with a warning naming it), never guessed.
 */
// biome-ignore format: one line per state reads as a table
const STATUS_WORDS = new Map<string, 'taken' | 'skipped'>([
  ...['taken', 'tomada', 'tomado', 'eingenommen', 'genommen', 'pris', 'prise', 'assunto', 'assunta', 'preso', 'presa', 'ingenomen', 'tagen', 'taget'].map(
    (w): [string, 'taken'] => [w, 'taken'],
  ),
  ...['skipped', 'omitida', 'omitido', 'saltada', 'saltado', 'ignorada', 'ignorado', 'pulada', 'pulado', 'ausgelassen', 'übersprungen',
    'ignoré', 'ignorée', 'sauté', 'sautée', 'omesso', 'omessa', 'saltato', 'saltata', 'overgeslagen', 'överhoppad', 'hoppadöver'].map(
    (w): [string, 'skipped'] => [w, 'skipped'],
  ),
]);

/** The field a dose's `status` fills (`taken` or `skipped`), or undefined for any other status. */
export function doseField(status: unknown): 'taken' | 'skipped' | undefined {
  if (typeof status !== 'string') return undefined;
  return STATUS_WORDS.get(
    status
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}]/gu, ''),
  );
}

/** The name of the medication a dose entry is of: what the app shows, else its nickname or name. */
export function medicationOf(entry: Record<string, unknown>): string | undefined {
  for (const k of ['medication', 'displayText', 'nickname', 'name']) {
    const v = entry[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}
