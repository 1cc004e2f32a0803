/**
 * A card's `description` as shown to people (Settings › Cards). Descriptions are written for the
 * chat assistant too, so they often carry the row format (`{date, kg: number}`), a data path
 * (`data.items[]`) or a Health Auto Export metric name (`(step_count)`); a person needs none of
 * that. Shared by the server and the browser: no Node imports.
 */

/** A sentence about files, routes or data paths: left out whole. */
const TECHNICAL_SENTENCE = /\bdata\.[\w[\]]|\bmeta\.\w|\/api\/|\$?HEALTH_HOME|\.json\b|\bPOST\b|`/;

/** A `{…}` group (a row format), with the colon that introduces it. */
const ROW_FORMAT = /\s*:?\s*\{[^{}]*\}/g;

/** A metric or field name in brackets: `(step_count)`, `(resting_heart_rate)`. */
const IDENTIFIER_IN_BRACKETS = /\s*\(\s*[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s*\)/g;

/**
 * `description` without the parts written for programs: sentences naming data paths, files or
 * routes are dropped, row formats in braces and snake_case names in brackets are cut out, and the
 * rest is tidied ("Steps walked per day, from the phone or watch via Health Auto Export (step_count):
 * {date, count: number}." → "Steps walked per day, from the phone or watch via Health Auto
 * Export."). Not a string, or nothing left: ''.
 */
export function descriptionForPeople(description: unknown): string {
  if (typeof description !== 'string') return '';
  const sentences = description
    .trim()
    .split(/(?<=[.!?])\s+/)
    .filter((s) => !TECHNICAL_SENTENCE.test(s))
    .map((s) =>
      s
        .replace(ROW_FORMAT, '')
        .replace(IDENTIFIER_IN_BRACKETS, '')
        .replace(/\s+([.,;:!?])/g, '$1')
        .replace(/[,;:]+(?=[.!?]?$)/, '')
        .replace(/\s{2,}/g, ' ')
        .trim(),
    )
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
    .map((s) => (/[.!?]$/.test(s) ? s : `${s}.`));
  return sentences.join(' ');
}
