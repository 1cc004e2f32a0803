/**
 * Shapes that older installs and hand-written files give the data block, brought to today's:
 * date-keyed objects become dated rows, and a
 * JSON-encoded string in a hand-written file is parsed ("rescued").
 */

import { isIsoDate } from '../common/dates.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Legacy date-keyed objects (`{"2026-04-20": {...}}`, the old mood/notes shape) become dated
 * rows sorted by date; anything else is returned as is.
 */
export function normaliseDateKeyed(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const entries = Object.entries(data as Record<string, unknown>);
  if (entries.length === 0) return data;
  const dated = entries.every(
    ([k, v]) => ISO_DATE.test(k) && isIsoDate(k) && v !== null && typeof v === 'object' && !Array.isArray(v),
  );
  if (!dated) return data;
  // each row starts with its date; the key is the date even if the row says otherwise
  return entries
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, row]) => {
      const { date: _ignored, ...rest } = row as Record<string, unknown>;
      return { date, ...rest };
    });
}

/**
 * The data of a manifest file being imported: a string that parses to an array or object is
 * rescued (`rescued: true`, reported as a load warning), then date-keyed objects become rows.
 */
export function normaliseImportedData(data: unknown): { data: unknown; rescued: boolean } {
  if (typeof data === 'string') {
    try {
      const parsed = JSON.parse(data);
      if (parsed !== null && typeof parsed === 'object')
        return { data: normaliseDateKeyed(parsed), rescued: true };
    } catch {
      // not JSON: kept as the string it is
    }
    return { data, rescued: false };
  }
  return { data: normaliseDateKeyed(data), rescued: false };
}
