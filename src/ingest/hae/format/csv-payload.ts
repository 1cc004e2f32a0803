/**
 * Health Auto Export's CSV export read as the payload its JSON export would be
 * (docs/HEALTH-AUTO-EXPORT.md "CSV"). An automation set to CSV posts `multipart/form-data` with
 * one file per data type: the health metrics, one row per time bucket (`Date/Time` or `Date`,
 * then a column per metric, `Step Count (count)`, `Heart Rate [Min] (count/min)`, `Sleep Analysis
 * [Core] (hr)`, `VO2 Max (ml/(kg·min))`), and the workouts, one row each (`Workout Type`,
 * `Start`, `End`, `Active Energy (kcal)`, `Avg. Heart Rate (count/min)`, `Distance (mi)` ...).
 * A file alone (`text/csv`, or a body that reads as CSV) is read the same way.
 *
 * Each metric column becomes a point of the block named by its column (the catalogue reads the
 * display name: `Weight & Body Mass` is `weight_body_mass`) in the unit in its brackets; the parts
 * of one metric in square brackets fill the fields its JSON points have (`Min`, `Avg`, `Max`;
 * `systolic`, `diastolic`; a night's `totalSleep`, `core`, `inBed` ...). An empty cell is no
 * point. The values are kept as text: the extraction reads them as it reads numbers sent as text.
 */
import { clipGraphemes } from '../../../common/graphemes.js';
import { lookupTable } from '../../../common/lookup-table.js';
import { resolveMetric } from './catalogue.js';
import { dayOrderOf, withDayOrder } from './csv-date-order.js';
import { type DecimalMark, decimalMarkOf, plainNumberText } from './csv-number-style.js';
import { isWorkoutSeriesFile, workoutSeriesWarning } from './csv-workout-series.js';
import { csvFiles } from './multipart-files.js';

/** A CSV body read as a payload: what normalisePayload reads, and what could not be read. */
export interface CsvPayload {
  payload: { metrics: Record<string, unknown>[]; workouts: Record<string, unknown>[] };
  warnings: string[];
  /**
   * Whether the body held the app's Health Metrics or Workouts file, rows or not: a period with
   * nothing measured (no workout that day) is sent as such a file with its header line alone.
   */
  recognised: boolean;
}

/**
 * True when a body is to be read as CSV: its Content-Type says so, or its first line reads as a
 * CSV header. Tab-separated text counts: the file a spreadsheet saves as "Tab-separated values"
 * (or a copy of its cells) after the app's CSV was opened in it.
 */
export function isCsvBody(body: Buffer, contentType: string | undefined): boolean {
  const type = (contentType ?? '').toLowerCase();
  if (
    type.includes('multipart/form-data') ||
    type.includes('text/csv') ||
    type.includes('tab-separated-values')
  )
    return true;
  if (type.includes('json')) return false;
  const head = body
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\ufeff/, '');
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  return /^\s*"?date(?:\/time)?"?\s*[,;\t]/i.test(first) || /^\s*"?workout type"?\s*[,;\t]/i.test(first);
}

/** How many times `c` is in `line`. */
const countOf = (line: string, c: string) => line.split(c).length - 1;

/**
 * The field separator of a CSV text, from its header line: `,`, `;` (a region whose decimal mark
 * is a comma), or a tab (the text a spreadsheet saves as tab-separated values), whichever parts
 * the line most; the app's column names hold none of them.
 */
function separatorOf(firstLine: string): string {
  const tabs = countOf(firstLine, '\t');
  if (tabs > 0 && tabs >= countOf(firstLine, ',') && tabs >= countOf(firstLine, ';')) return '\t';
  return !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
}

/**
 * The rows of a CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF), `,`, `;` or tab
 * apart (separatorOf).
 */
export function csvRows(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const sep = separatorOf(firstLine);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.some((f) => f.trim() !== '')) rows.push(row);
      row = [];
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim() !== '')) rows.push(row);
  return rows;
}

/** A metric column's header: `Name [Part] (unit)`, the part and the unit optional. */
function headerOf(text: string): { name: string; part?: string; units: string } {
  const m = /^(.*?)\s*(?:\[([^\]]*)\])?\s*(?:\((.*)\))?\s*$/s.exec(text.trim());
  return { name: (m?.[1] ?? text).trim(), part: m?.[2]?.trim(), units: (m?.[3] ?? '').trim() };
}

/** The JSON field of a metric column's part, by the metric's point shape; undefined when none. */
const PART_FIELDS: Readonly<Record<string, Readonly<Record<string, string | undefined>> | undefined>> =
  lookupTable({
    minAvgMax: lookupTable({ min: 'Min', avg: 'Avg', max: 'Max' }),
    bloodPressure: lookupTable({ systolic: 'systolic', diastolic: 'diastolic' }),
    counts: lookupTable({
      unspecified: 'Unspecified',
      'protection used': 'Protection Used',
      'protection not used': 'Protection Not Used',
    }),
    sleep: lookupTable({
      total: 'totalSleep',
      asleep: 'asleep',
      'in bed': 'inBed',
      inbed: 'inBed',
      core: 'core',
      deep: 'deep',
      rem: 'rem',
      awake: 'awake',
      unspecified: 'unspecified',
    }),
  });

/** The point field a metric column fills: `qty`, the field of its part, or undefined (a part Klebb does not know). */
function fieldOf(name: string, part: string | undefined): string | undefined {
  const shape = resolveMetric(name)?.shape;
  if (part === undefined || part === '') return shape === 'minAvgMax' ? 'Avg' : 'qty';
  return PART_FIELDS[shape ?? '']?.[part.toLowerCase()];
}

/**
 * Reads the metrics file's rows into metric blocks: one block per metric name, one point per row
 * with a value in one of its columns.
 */
function metricBlocks(
  rows: string[][],
  mark: DecimalMark | undefined,
  warnings: string[],
): Record<string, unknown>[] {
  const [header, ...data] = rows;
  const source = header.findIndex((h) => h.trim().toLowerCase() === 'source');
  const columns: { at: number; name: string; field: string; units: string }[] = [];
  const firstAt = new Map<string, number>();
  for (let at = 1; at < header.length; at++) {
    if (at === source || header[at].trim() === '') continue;
    const h = headerOf(header[at]);
    const field = fieldOf(h.name, h.part);
    if (field === undefined) {
      warnings.push(`CSV column "${header[at].trim()}" is a part of ${h.name} Klebb does not know; not read`);
      continue;
    }
    const key = `${resolveMetric(h.name)?.key ?? h.name.toLowerCase()}\u0000${field}`;
    if (!firstOnly(firstAt, key, at, header, warnings)) continue;
    columns.push({ at, name: h.name, field, units: h.units });
  }
  const blocks = new Map<string, { name: string; units: string; data: Record<string, unknown>[] }>();
  for (const c of columns) {
    const block = blocks.get(c.name);
    if (!block) blocks.set(c.name, { name: c.name, units: c.units, data: [] });
    else if (block.units === '') block.units = c.units;
  }
  for (const row of data) {
    const date = (row[0] ?? '').trim();
    const points = new Map<string, Record<string, unknown>>();
    for (const c of columns) {
      const v = plainNumberText((row[c.at] ?? '').trim(), mark);
      if (v === '') continue;
      let p = points.get(c.name);
      if (!p) {
        p = { date };
        const s = source >= 0 ? (row[source] ?? '').trim() : '';
        if (s) p.source = s;
        points.set(c.name, p);
      }
      // a part in another unit than the block's (rare): the value with its unit
      const units = blocks.get(c.name)?.units;
      p[c.field] = c.units && units && c.units !== units && c.field === 'qty' ? `${v} ${c.units}` : v;
    }
    for (const [name, p] of points) blocks.get(name)?.data.push(p);
  }
  return [...blocks.values()].filter((b) => b.data.length > 0);
}

/**
 * Whether the column at `at` is the first to fill `key` (a metric's field, a workout's field):
 * the first column is read and a later one is not, with a warning naming both. A file with a
 * column written twice (edited by hand, or joined from two exports) would otherwise have its
 * values overwritten by whichever column comes last, without a word.
 */
function firstOnly(
  firstAt: Map<string, number>,
  key: string,
  at: number,
  header: string[],
  warnings: string[],
): boolean {
  const first = firstAt.get(key);
  if (first === undefined) {
    firstAt.set(key, at);
    return true;
  }
  warnings.push(
    `CSV column "${header[at].trim()}" (column ${at + 1}) fills what column ${first + 1} ("${header[first].trim()}") fills; only the first is read`,
  );
  return false;
}

/**
 * The JSON key of a workouts file's column, by its name (units in brackets aside) as
 * workoutColumnName spells it. The app has headed these columns differently over its versions
 * (`Workout Type` then `Type`, `Avg. Heart Rate` then `Avg Heart Rate`); `Total Energy` (active
 * and resting energy together) is not the workout's calories and is not read.
 */
const WORKOUT_COLUMNS = lookupTable<string>({
  'workout type': 'name',
  type: 'name',
  start: 'start',
  end: 'end',
  duration: 'duration',
  'active energy': 'activeEnergyBurned',
  'active energy burned': 'activeEnergyBurned',
  distance: 'distance',
  'avg heart rate': 'avgHeartRate',
  'max heart rate': 'maxHeartRate',
  'elevation ascended': 'elevationUp',
  'elevation gain': 'elevationUp',
});

/** A workout column's name as WORKOUT_COLUMNS spells it: lower case, no dots, `avg` and `max` for the words in full. */
function workoutColumnName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\./g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^average\b/, 'avg')
    .replace(/^maximum\b/, 'max');
}

/** Workout columns whose cells are read as text: the name, the stamps. */
const TEXT_COLUMNS = new Set(['name', 'start', 'end']);

/**
 * Reads the workouts file's rows into workout objects as the JSON export writes them. The
 * Duration column is the workout's own duration (`0:45:00`, without its pauses), read as the
 * JSON export's `duration`: also when the row has no end.
 */
function workoutObjects(
  rows: string[][],
  mark: DecimalMark | undefined,
  warnings: string[],
): Record<string, unknown>[] {
  const [header, ...data] = rows;
  const columns: { at: number; key: string; units: string }[] = [];
  const firstAt = new Map<string, number>();
  header.forEach((text, at) => {
    const h = headerOf(text);
    const key = WORKOUT_COLUMNS[workoutColumnName(h.name)];
    if (key && firstOnly(firstAt, key, at, header, warnings)) columns.push({ at, key, units: h.units });
  });
  const out: Record<string, unknown>[] = [];
  for (const row of data) {
    const w: Record<string, unknown> = {};
    for (const c of columns) {
      const text = (row[c.at] ?? '').trim();
      if (text === '') continue;
      const v = TEXT_COLUMNS.has(c.key) ? text : plainNumberText(text, mark);
      // a duration without a unit in its header is the app's clock text (or seconds, as in JSON)
      w[c.key] =
        TEXT_COLUMNS.has(c.key) || (c.key === 'duration' && c.units === '') ? v : { qty: v, units: c.units };
    }
    if (Object.keys(w).length > 0) out.push(w);
  }
  return out;
}

/**
 * A CSV body (the multipart files of an automation set to CSV, or one CSV file) read as the
 * payload its JSON export would be; a file that is neither the metrics nor the workouts file is
 * said in the warnings (without its content). A file of the app's holding no value (its header
 * alone, or rows of empty cells) is recognised and adds nothing, as an empty JSON push does.
 */
export function csvPayload(body: Buffer, contentType: string | undefined): CsvPayload {
  const warnings: string[] = [];
  const payload: CsvPayload['payload'] = { metrics: [], workouts: [] };
  let recognised = false;
  const series: string[] = [];
  const read = csvFiles(body, contentType).map((file) => ({ ...file, rows: csvRows(file.text) }));
  // the body is written in one region: the numbers that show their decimal mark tell the others',
  // the stamps that show the order of day and month tell the others' (csv-date-order.ts)
  const cells = read.flatMap((file) => file.rows.slice(1).flat());
  const mark = decimalMarkOf(cells);
  const order = dayOrderOf(cells);
  const files = read.map((file) => ({ ...file, rows: withDayOrder(file.rows, order) }));
  for (const file of files) {
    const rows = file.rows;
    if (rows.length === 0) continue;
    const heads = rows[0].map(headerOf);
    const first = heads.map((h) => h.name.toLowerCase());
    if (first.includes('workout type') || (first.includes('type') && first.includes('start'))) {
      payload.workouts.push(...workoutObjects(rows, mark, warnings));
      recognised = true;
    } else if (isWorkoutSeriesFile(file.name, first)) {
      // the app's file, read as the JSON export's workout series are: not at all
      series.push(file.name ?? `a file headed ${JSON.stringify(clipGraphemes(rows[0].join(','), 80))}`);
      recognised = true;
    } else if ((first[0] === 'date/time' || first[0] === 'date') && heads.slice(1).some((h) => h.units)) {
      // the app names every metric column with its unit in brackets (`Step Count (count)`): a
      // table of dates and bare names (`Date,Steps`) is someone else's CSV
      payload.metrics.push(...metricBlocks(rows, mark, warnings));
      recognised = true;
    } else
      warnings.push(
        'a CSV file that is neither the Health Metrics nor the Workouts file of Health Auto Export; not read',
      );
  }
  if (series.length > 0) warnings.push(workoutSeriesWarning(series));
  return { payload, warnings, recognised };
}
