/**
 * The `ecg` section of a Health Auto Export push: one entry per electrocardiogram recorded with the
 * watch's ECG app, `{start, end, classification: "Sinus Rhythm", severity, averageHeartRate,
 * numberOfVoltageMeasurements, samplingFrequency, source, voltageMeasurements: [...]}`. Each
 * recording counts once on its day on the `ecg` metric, in the field of its classification:
 * `sinusRhythm`, `atrialFibrillation`, `inconclusive` (a poor recording, a heart rate too low or
 * too high to classify, any other inconclusive reading) or `unclassified` (not set, unrecognised).
 * The voltages (some 15,000 a recording) are not kept. A classification Klebb does not know is left
 * out with a warning naming it, never guessed.
 */

import type { MetricBlock } from './payload.js';

/** The metric block name the section is read under (other-sections.ts) before it is read. */
export const ECG_BLOCK = 'ecg_recordings';

/** The metric recordings fill. */
export const ECG_METRIC = 'ecg';

/** The words of each classification, letters only, lower case, without accents (see classificationField). */
// biome-ignore format: one line per classification reads as a table
const WORDS: [string, string[]][] = [
  ['sinusRhythm', ['sinusrhythm', 'ritmosinusal', 'sinusrhythmus', 'rythmesinusal', 'ritmosinusale', 'sinusritme', 'sinusrytm']],
  ['atrialFibrillation', ['atrialfibrillation', 'afib', 'fibrilacionauricular', 'vorhofflimmern', 'fibrillationauriculaire', 'fibrillazioneatriale', 'fibrilacaoatrial']],
  ['unclassified', ['notset', 'unrecognized', 'unrecognised', 'unclassified']],
];

/**
 * How an inconclusive reading's words start (poor recording, heart rate too low or too high), in
 * English and in the phone's language: a heart rate the watch cannot classify is written as the
 * heart rate and its bound (`Heart Rate Over 150`, `Frecuencia cardíaca superior a 150`,
 * `Herzfrequenz über 150`), so a classification that starts with "heart rate" is inconclusive.
 */
const INCONCLUSIVE = [
  'inconclusive',
  'poorrecording',
  'heartrate',
  'noconcluyente',
  'nichteindeutig',
  'nonconcluant',
  'nonconclusivo',
  'inconclusivo',
  'nietovertuigend',
  'inteentydig',
  'frecuenciacardiaca',
  'herzfrequenz',
  'frequencecardiaque',
  'frequenzacardiaca',
  'frequenciacardiaca',
  'hartslag',
  'hjartfrekvens',
  'registrodemalacalidad',
  'schlechteaufnahme',
  'enregistrementdemauvaisequalite',
  'registrazionediscarsaqualita',
  'gravacaodemaqualidade',
];

const BY_WORD = new Map(WORDS.flatMap(([field, words]) => words.map((w): [string, string] => [w, field])));

/**
 * The field of a classification, by its letters (accents dropped, lower case) after any
 * `HKElectrocardiogramClassification` prefix: the app's words, in English and in the phone's
 * language (`Sinus Rhythm`, `Ritmo sinusal`, `Vorhofflimmern`, `Inconclusive Poor Recording`),
 * HealthKit's names (`atrialFibrillation`, `inconclusiveLowHeartRate`) and the Health app's
 * (`Heart Rate Over 150`); undefined for words Klebb does not know. An empty text (an ECG file's
 * `Classification,` line with nothing after it: the watch did not classify the recording) is
 * `unclassified`, as `Not Set` is: the recording was made and counts.
 */
function classificationField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return 'unclassified';
  const l = value
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/^hkelectrocardiogramclassification/, '');
  const field = BY_WORD.get(l);
  if (field !== undefined) return field;
  return INCONCLUSIVE.some((w) => l.startsWith(w)) ? 'inconclusive' : undefined;
}

/**
 * The section's entries (the points of the block ECG_BLOCK) as the `ecg` block, one point
 * `{start, outcome, source?}` a recording (samples.ts counts the field its outcome names), so a
 * recording sent again is the same sample. A classification Klebb does not know keeps its text as
 * the outcome, which the metric has no field for: the point is left out with a warning naming it.
 */
export function ecgBlock(block: MetricBlock): MetricBlock {
  const out: MetricBlock = { name: ECG_METRIC, units: 'count', data: [] };
  for (const entry of block.data) {
    const classification = entry.classification ?? entry.value;
    const point: Record<string, unknown> = {
      start: entry.start ?? entry.date ?? entry.startDate,
      outcome: classificationField(classification),
      value: classification,
    };
    // a source sent as an object (`{name, bundleIdentifier}`) is read as the points' are
    if (entry.source !== undefined) point.source = entry.source;
    out.data.push(point);
  }
  return out;
}
