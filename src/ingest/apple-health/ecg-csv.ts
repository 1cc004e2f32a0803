/**
 * The electrocardiograms of an Apple Health export. The Health app writes each ECG recorded with
 * the watch to a file of its own in the zip, `apple_health_export/electrocardiograms/ecg_<day>.csv`
 * (the folder's name in the phone's language on some phones), never into `export.xml`: a few
 * `Key,Value` lines, then one voltage (µV) a line, some 15,000 of them:
 *
 *     Name,…
 *     Date of Birth,"Jan 15, 1990"
 *     Recorded Date,2026-03-04 09:41:07 +0100
 *     Classification,Sinus Rhythm
 *     Symptoms,
 *     Software Version,1.90
 *     Device,"Watch6,7"
 *     Sample Rate,512 hertz
 *
 *     Lead,Lead I
 *     Unit,µV
 *
 *     -48.673
 *
 * Only the head is read: when it was recorded and how the watch classified it, which count on the
 * `ecg` metric as a recording Health Auto Export sends does (hae/format/ecg.ts). The keys are in
 * the phone's language too (`Aufnahmedatum`, `Klassifizierung`), so the recording's stamp is the
 * header's first value written as a stamp with a time of day (the date of birth has none) and
 * its classification the value under a key naming it, else the line right after the stamp, as
 * the Health app orders them.
 */
import { ECG_BLOCK, ecgBlock } from '../hae/format/ecg.js';
import type { MetricBlock } from '../hae/format/payload.js';
import { parseHaeTimestamp } from '../hae/format/timestamps.js';

/** Bytes of a file's head read: its header lines take a few hundred. */
export const ECG_HEAD_BYTES = 4096;

/** One recording as its file's head says. */
export interface EcgHead {
  /** When it was recorded, as written (`2026-03-04 09:41:07 +0100`). */
  start: string;
  /** The classification, as written (`Sinus Rhythm`, `Sinusrhythmus`); '' when the file has none. */
  classification: string;
}

/** The key of a classification line, letters only, lower case, accents dropped. */
const CLASSIFICATION_KEYS = new Set([
  'classification',
  'klassifizierung',
  'klassifikation',
  'clasificacion',
  'classificazione',
  'classificacao',
  'classificatie',
  'klassificering',
  'klassifisering',
]);

/** A header line as its key and value; the value may be quoted (`"Watch6,7"`). */
function keyValue(line: string): [string, string] {
  const comma = line.indexOf(',');
  if (comma < 0) return [line.trim(), ''];
  let value = line.slice(comma + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
    value = value.slice(1, -1).replace(/""/g, '"');
  return [line.slice(0, comma).trim(), value];
}

function folded(key: string): string {
  return key
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** A voltage line: a number, with a decimal point or, on some phones, a decimal comma. */
const VOLTAGE = /^-?\d+(?:[.,]\d+)?$/;

/**
 * The recording a file's head (its first ECG_HEAD_BYTES, UTF-8, a byte order mark allowed) holds,
 * or undefined when it is no ECG file: it has no stamp among its header lines, or no voltage line
 * follows them.
 */
export function ecgHead(head: string): EcgHead | undefined {
  const lines = head.replace(/^\ufeff/, '').split(/\r?\n/);
  let start: string | undefined;
  let afterStart: string | undefined;
  let classification: string | undefined;
  let voltages = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (VOLTAGE.test(line)) {
      voltages = true;
      break;
    }
    const [key, value] = keyValue(line);
    if (CLASSIFICATION_KEYS.has(folded(key))) classification ??= value;
    if (start === undefined && /\d:\d\d/.test(value) && parseHaeTimestamp(value) !== null) {
      start = value;
      const next = lines[i + 1]?.trim();
      if (next) afterStart = keyValue(next)[1];
    }
  }
  if (start === undefined || !voltages) return undefined;
  return { start, classification: classification ?? afterStart ?? '' };
}

/**
 * The `ecg` block of an export's recordings: one point each, counted on its day by its
 * classification, read as a Health Auto Export push's are (a classification Klebb does not know
 * is left out with a warning naming it).
 */
export function ecgRecordingsBlock(heads: readonly EcgHead[]): MetricBlock {
  return ecgBlock({
    name: ECG_BLOCK,
    units: '',
    data: heads.map((h) => ({ start: h.start, classification: h.classification })),
  });
}
