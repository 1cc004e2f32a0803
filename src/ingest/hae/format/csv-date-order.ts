/**
 * The order of day and month in the stamps of a CSV body. A Health Auto Export CSV opened in a
 * spreadsheet and saved again has its stamps written as the computer's region writes dates:
 * `5/13/2026 0:00` in the United States, `13/05/2026 00:00` in Britain. One stamp alone may not
 * tell the order (`5/1/2026` is 1 May or 5 January), so the first twelve days of every month
 * were left out as unreadable. But the file is written in one region: a stamp that shows its
 * order (a day above 12) tells how to read the others. When the body shows both orders, or
 * neither, the stamps are read as they are (those that cannot be told are left out with a
 * warning, as before).
 */
import { dayOrderShown, inDayOrder } from './timestamp-spellings.js';

/**
 * A cell that may be a stamp written day and month first: a digit, then a separator soon after
 * (`5/1/26`, a two-digit year without a time, is the shortest).
 */
function mayBeDayFirst(cell: string): boolean {
  const t = cell.trimStart();
  return t.length >= 6 && t.length <= 40 && (t[1] === '/' || t[2] === '/' || t[1] === '-' || t[2] === '-');
}

/**
 * The order of day and month the cells show (`dm`: day first), or undefined when none shows
 * one, or some show each (`cells`: the values of the body's rows, any text).
 */
export function dayOrderOf(cells: Iterable<string>): 'dm' | 'md' | undefined {
  let dm = false;
  let md = false;
  for (const cell of cells) {
    if (!mayBeDayFirst(cell)) continue;
    const shown = dayOrderShown(cell);
    if (shown === 'dm') dm = true;
    else if (shown === 'md') md = true;
    if (dm && md) return undefined;
  }
  return dm ? 'dm' : md ? 'md' : undefined;
}

/**
 * `rows` with every stamp whose day and month order cannot be told alone rewritten year first
 * in `order` (dayOrderOf of the body); `rows` itself when no order is known.
 */
export function withDayOrder(rows: string[][], order: 'dm' | 'md' | undefined): string[][] {
  if (order === undefined) return rows;
  return rows.map((row) => row.map((cell) => (mayBeDayFirst(cell) ? inDayOrder(cell, order) : cell)));
}
