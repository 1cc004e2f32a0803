/**
 * The way the numbers of a Health Auto Export CSV body are written. The app writes them as the
 * phone's region does: a decimal comma and points between thousands (`72,5`, `12.345`,
 * `808.742.334`) on a phone set to Germany, Spain or Brazil; a decimal point and commas between
 * thousands (`72.5`, `1,234`) on an English one. One number alone may not tell (`12.345` is twelve
 * and a third, or twelve thousand), but the body is written in one region: a number that shows its
 * decimal mark (`72,5`: a comma before one, two or four or more digits; `72.5` likewise; a number
 * grouped twice, `1.234.567`; a group then a decimal, `1.079,45`) tells how to read the others.
 * When the body shows both ways, or neither, the numbers are read as they are.
 */

/** A decimal mark: the comma of `72,5` or the point of `72.5`. */
export type DecimalMark = ',' | '.';

/** Numbers that show a decimal comma (`72,5`, `0,2500`, `1.234.567`, `1.079,45`). */
const SHOWS_COMMA =
  /^[+-]?(?:\d+,(?:\d{1,2}|\d{4,})|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+)$/;
/** Numbers that show a decimal point (`72.5`, `0.2500`, `1,234,567`, `1,079.45`). */
const SHOWS_POINT =
  /^[+-]?(?:\d+\.(?:\d{1,2}|\d{4,})|\d{1,3}(?:,\d{3}){2,}(?:\.\d+)?|\d{1,3}(?:,\d{3})+\.\d+)$/;

/** A number written with a decimal comma, points between its thousands optional. */
const COMMA_NUMBER = /^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/;
/** A number written with a decimal point, commas between its thousands. */
const POINT_GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * The decimal mark the cells show (`cells`: the values of the body's rows, any text), or
 * undefined when none shows one, or some show each.
 */
export function decimalMarkOf(cells: Iterable<string>): DecimalMark | undefined {
  let comma = false;
  let point = false;
  for (const cell of cells) {
    const t = cell.trim();
    if (t === '' || t.length > 40) continue;
    if (SHOWS_COMMA.test(t)) comma = true;
    else if (SHOWS_POINT.test(t)) point = true;
    if (comma && point) return undefined;
  }
  return comma ? ',' : point ? '.' : undefined;
}

/**
 * A cell's text with its number written plainly (`12.345` → `12345` and `72,5` → `72.5` when
 * `mark` is the comma; `1,234` → `1234` when it is the point); any other text as it is.
 */
export function plainNumberText(cell: string, mark: DecimalMark | undefined): string {
  if (mark === undefined) return cell;
  const t = cell.trim();
  if (mark === ',') return COMMA_NUMBER.test(t) ? t.replaceAll('.', '').replace(',', '.') : cell;
  return POINT_GROUPED.test(t) ? t.replaceAll(',', '') : cell;
}
