/**
 * A card's rows as CSV for a doctor or a spreadsheet (RFC 4180): one column per top-level field
 * (`date` and `time` first, then in order of first appearance), ISO dates as stored, the unit in
 * the header where the card declares one (`kg (kg)` reads badly, so a unit equal to the field
 * name is left out). Nested values are written as JSON. A text cell that a spreadsheet would run
 * as a formula (starting with = + - @ or a tab, also after spaces or in full-width form) gets a
 * leading apostrophe. The text starts with a
 * UTF-8 byte order mark: without it Excel opens the file in the computer's legacy code page and
 * shows "Übelkeit" or "µmol/L" as "Ãœbelkeit" and "Âµmol/L" (other programs skip the mark). Rows
 * are read in pages, so memory stays flat for a card of any length and no read holds the
 * database between pages.
 */
import { formInputs } from '../common/inputs.js';
import { toFiniteNumber } from '../common/numbers.js';
import type { Db } from '../store/database.js';

/** The UTF-8 byte order mark, which tells spreadsheets the file is UTF-8. */
export const CSV_BOM = '\uFEFF';

/** Rows read per page. */
const PAGE_ROWS = 1000;

/** A field's unit from the manifest: inputs, the headline's display unit, chart series. */
export function fieldUnits(meta: Record<string, unknown>): Map<string, string> {
  const units = new Map<string, string>();
  const obj = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const set = (field: unknown, unit: unknown) => {
    const f = str(field);
    const u = str(unit);
    if (f && u && !units.has(f)) units.set(f, u);
  };
  const view = obj(meta.view);
  const writeable = obj(meta.writeable);
  for (const inputs of [writeable?.inputs, view?.inputs]) {
    if (!Array.isArray(inputs)) continue;
    for (const i of inputs) set(obj(i)?.key ?? obj(i)?.name, obj(i)?.unit);
  }
  const display = obj(view?.display);
  const primary = str(display?.primary);
  if (primary) set(primary.replace(/^latest\./, ''), display?.unit);
  const trends = obj(meta.trends);
  const series = Array.isArray(trends?.series) ? trends.series : [];
  const axis = trends?.yAxisLabel ?? trends?.unit;
  for (const s of series) set(obj(s)?.field, obj(s)?.unit ?? axis);
  const ingest = obj(meta.ingest);
  if (ingest) set(ingest.field ?? 'value', ingest.unit);
  return units;
}

/**
 * How a spreadsheet in the reader's language reads a CSV: where the decimal sign is a comma
 * (German, French…), Excel splits fields at `;` and reads `85.3` as text or a date, so such a
 * reader gets `;` between fields and `85,3`.
 */
export interface CsvDialect {
  delimiter: ',' | ';';
  decimal: '.' | ',';
}

/** RFC 4180: commas between fields, a point in numbers. */
export const PLAIN_CSV: CsvDialect = { delimiter: ',', decimal: '.' };

/**
 * The dialect for a BCP 47 language tag (`de-DE`, `en`), from the decimal sign Intl gives it;
 * undefined gives PLAIN_CSV.
 * @throws RangeError for a tag Intl does not accept.
 */
export function csvDialectFor(locale: string | undefined): CsvDialect {
  if (locale === undefined || locale === '') return PLAIN_CSV;
  const parts = new Intl.NumberFormat(locale).formatToParts(1.5);
  return parts.find((p) => p.type === 'decimal')?.value === ','
    ? { delimiter: ';', decimal: ',' }
    : PLAIN_CSV;
}

/**
 * Text a spreadsheet would run as a formula: starting with = + - @ (or their full-width forms,
 * which Excel reads as the same in East Asian locales), also after leading spaces, which
 * spreadsheets skip before they look for a formula; or starting with a tab or carriage return.
 */
const FORMULA_START = /^(?:[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r])/;

/** One CSV cell. */
export function csvCell(v: unknown, dialect: CsvDialect = PLAIN_CSV): string {
  if (v === undefined || v === null) return '';
  let s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  // a number never holds the delimiter (a decimal comma comes with `;`): left unquoted
  if (typeof v === 'number') return dialect.decimal === ',' ? s.replace('.', ',') : s;
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  // quoted when it holds either delimiter, so it reads as one cell in both dialects
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function* pages(db: Db, cardId: string): Generator<unknown[]> {
  const page = db.prepare(
    'SELECT pos, body FROM card_rows WHERE card_id = ? AND pos > ? ORDER BY pos LIMIT ?',
  );
  let after = -Infinity;
  for (;;) {
    const rows = page.all(cardId, after === -Infinity ? -9007199254740991 : after, PAGE_ROWS) as {
      pos: number;
      body: string;
    }[];
    if (rows.length === 0) return;
    after = rows[rows.length - 1].pos;
    yield rows.map((r) => JSON.parse(r.body));
  }
}

/** The rows of a card as plain objects (an array card), or the one document (anything else). */
function* rowsOf(db: Db, cardId: string): Generator<unknown> {
  const st = db.prepare('SELECT shape, doc FROM card_state WHERE card_id = ?').get(cardId) as
    | { shape: string; doc: string | null }
    | undefined;
  if (!st || st.shape === 'none') return;
  if (st.shape === 'value') {
    const doc = JSON.parse(st.doc ?? 'null');
    if (doc !== null) yield doc;
    return;
  }
  for (const p of pages(db, cardId)) yield* p;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** Form inputs that take a number. */
const NUMBER_INPUTS: readonly string[] = ['number', 'stepper', 'rating'];

/**
 * The columns: `date` and `time`, then the fields of the card's form in its order (also those no
 * row fills yet, so a card without rows still gets its header, and exports taken month by month
 * line up), then every other top-level key of the rows as it first appears (a non-object row is
 * one `value` column). `numbers`: the fields of numbers, those the form asks a number for or
 * where a row holds a number.
 */
function columnsOf(
  db: Db,
  cardId: string,
  meta: Record<string, unknown>,
): { cols: string[]; numbers: Set<string> } {
  const inputs = formInputs(meta);
  const seen = new Set<string>(inputs.map((i) => i.key));
  const numbers = new Set<string>(inputs.filter((i) => NUMBER_INPUTS.includes(i.type)).map((i) => i.key));
  for (const r of rowsOf(db, cardId)) {
    if (!isRecord(r)) {
      seen.add('value');
      if (typeof r === 'number') numbers.add('value');
      continue;
    }
    for (const [k, v] of Object.entries(r)) {
      seen.add(k);
      if (typeof v === 'number') numbers.add(k);
    }
  }
  const first = ['date', 'time'].filter((k) => seen.has(k));
  return { cols: [...first, ...[...seen].filter((k) => !first.includes(k))], numbers };
}

/**
 * A reading written as text in a field of numbers (`"72.4"`, `" -1.5 "`: a hand-edited file, a
 * script) is written as a number, as written but trimmed and with the dialect's decimal sign: as
 * text, a German Excel reads "1.5" as the 1st of May, and "-1.5" would be made text by the
 * formula guard. Anything else is left to `csvCell`.
 */
function numberCell(v: unknown, dialect: CsvDialect): string | undefined {
  if (typeof v !== 'string' || toFiniteNumber(v) === null) return undefined;
  // a leading + is dropped: the number is the same, and no cell starts like a formula
  const t = v.trim().replace(/^\+/, '');
  return dialect.decimal === ',' ? t.replace('.', ',') : t;
}

/**
 * The CSV text of a card, as lines (each ending CRLF): the header (after the byte order mark),
 * then one line per row, in `dialect`. Reads the rows twice (columns first), each time in pages.
 */
export function* cardCsvLines(
  db: Db,
  cardId: string,
  meta: Record<string, unknown>,
  dialect: CsvDialect = PLAIN_CSV,
): Generator<string> {
  const { cols, numbers } = columnsOf(db, cardId, meta);
  const units = fieldUnits(meta);
  const head = (c: string) => {
    const u = units.get(c);
    return u && u.toLowerCase() !== c.toLowerCase() ? `${c} (${u})` : c;
  };
  const sep = dialect.delimiter;
  yield `${CSV_BOM}${cols.map((c) => csvCell(head(c), dialect)).join(sep)}\r\n`;
  for (const r of rowsOf(db, cardId)) {
    const rec = isRecord(r) ? r : { value: r };
    const cell = (c: string) =>
      (numbers.has(c) ? numberCell(rec[c], dialect) : undefined) ?? csvCell(rec[c], dialect);
    yield `${cols.map(cell).join(sep)}\r\n`;
  }
}
