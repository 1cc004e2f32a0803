/**
 * Card rows produced from samples: `{date, <field>: value, ...}`, every
 * row carrying `date` `YYYY-MM-DD`, upserted by date into the subscribing card.
 */
import type { CatalogueEntry } from './catalogue.js';
import { roundTo } from './numbers.js';
import { parseHaeTimestamp } from './timestamps.js';

/** One row: `date` plus the entry's fields (numbers in canonical units, text, flags). */
export type HaeRow = { date: string } & { [field: string]: number | string | boolean };

/**
 * A row from unrounded field values: fields in catalogue order, numbers rounded to each field's
 * decimals (the only rounding anywhere), undefined and non-finite values
 * dropped (never null, NaN or Infinity; absent, not zero). Undefined when no field is left.
 */
export function finishRow(
  entry: CatalogueEntry,
  date: string,
  values: Record<string, number | string | boolean | undefined>,
): HaeRow | undefined {
  const row: HaeRow = { date };
  let fields = 0;
  for (const f of entry.fields) {
    const v = values[f.name];
    if (v === undefined) continue;
    if (typeof v === 'number') {
      const r = roundTo(v, f.decimals);
      if (r === undefined) continue;
      row[f.name] = r;
    } else row[f.name] = v;
    fields++;
  }
  return fields ? row : undefined;
}

/** Rows sorted by date (`YYYY-MM-DD` sorts as text). */
export function byDate(rows: HaeRow[]): HaeRow[] {
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The instant of a sample's `at` (ms), or undefined when it does not parse. */
export function instantOf(at: string): number | undefined {
  return parseHaeTimestamp(at)?.epochMs;
}
