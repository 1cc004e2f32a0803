/**
 * "Add a card" for a metric the phone sends: the manifest of a new card subscribed to it. A
 * template of `templates/` made for the same metric (its `meta.ingest` names it, aliases count) is
 * used when one exists and reads what the metric sends (card-fit.ts); otherwise a plain
 * `generic-card` is built from the catalogue entry: the headline is its first field, with its unit,
 * and a chart on Trends for numbers. The card is never writeable from the app: a push owns the row
 * of each day it carries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { lookupTable } from '../../common/lookup-table.js';
import { invalid } from '../../errors.js';
import { countedByKind, staticFitProblems } from './card-fit.js';
import { type CatalogueEntry, type HaeCategory, resolveMetric } from './format/catalogue.js';
import { metricLabel } from './format/labels.js';

/** A new card's manifest and the template it came from (null: built from the catalogue). */
export interface MetricCard {
  manifest: { $schema: string; meta: Record<string, unknown> & { id: string; label: string } } & Record<
    string,
    unknown
  >;
  template: string | null;
}

const EMOJI: Record<HaeCategory, string> = {
  sleep: '😴',
  recovery: '💓',
  activity: '🏃',
  vitals: '🩺',
  body: '⚖️',
  mindfulness: '🧘',
  lifestyle: '🌿',
  medication: '💊',
};

/** Unit labels as people write them (the catalogue's canonical spellings are for conversion). */
const UNIT_LABEL = lookupTable<string>({ hr: 'h', degC: '°C', count: '', 'count/min': 'bpm' });

function unitLabel(unit: string): string {
  return UNIT_LABEL[unit] ?? unit;
}

/** The template of `dir` made for `entry` that reads what it sends, with its id; undefined when none. */
export function templateFor(
  entry: CatalogueEntry,
  dir: string,
): { id: string; manifest: MetricCard['manifest'] } | undefined {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return undefined;
  }
  for (const name of names) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    const meta = (parsed as { meta?: { ingest?: { source?: unknown; metric?: unknown } } } | null)?.meta;
    const metric = meta?.ingest?.metric;
    if (meta?.ingest?.source !== 'hae' || typeof metric !== 'string') continue;
    if (resolveMetric(metric)?.key !== entry.key) continue;
    if (staticFitProblems(meta).length > 0) continue;
    return { id: name.slice(0, -'.json'.length), manifest: parsed as MetricCard['manifest'] };
  }
  return undefined;
}

/** An outcome field in words: `atrialFibrillation` → "atrial fibrillation". */
function outcomeWords(name: string): string {
  return name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}

/**
 * The headline of a card counting events by kind (ECG classifications, test results, doses taken
 * or skipped): every kind with its count, 0 when the day had none. A row carries only the kinds
 * that occurred, so a headline of the first one alone would show a day of only atrial
 * fibrillation, only negative tests or only skipped doses as empty.
 */
function outcomesTemplate(entry: CatalogueEntry): string {
  return entry.fields.map((f) => `{${f.name}|0} ${outcomeWords(f.name)}`).join(' · ');
}

/**
 * Metrics whose number stands for a word on a scale: the card shows the word (its number stays
 * in the row and on the chart). Cervical mucus is HealthKit's 1 (dry) to 5 (egg white).
 */
const SCALE_WORDS = lookupTable<Record<string, string>>({
  cervical_mucus_quality: { 1: 'dry', 2: 'sticky', 3: 'creamy', 4: 'watery', 5: 'egg white' },
});

/** The display block of a card built from the catalogue. */
function displayFor(entry: CatalogueEntry): Record<string, unknown> {
  const names = entry.fields.map((f) => f.name);
  if (countedByKind(entry)) return { template: outcomesTemplate(entry) };
  const words = SCALE_WORDS[entry.key];
  if (words) return { template: `{${names[0]}:emoji}`, emojiMap: { [names[0]]: words } };
  if (names.includes('systolic') && names.includes('diastolic'))
    return { template: '{systolic}/{diastolic}', unit: 'mmHg' };
  if (entry.shape === 'workouts') return { template: '{type|Workout}', secondary: '{durationMin|} min' };
  if (entry.kind === 'any') return { template: `{${names[0]}?Yes:No}` };
  if (entry.shape === 'minAvgMax') return { template: '{avg}', unit: 'bpm', secondary: '{min}–{max}' };
  if (entry.shape === 'glucose') return { template: '{mmol|}{mgdl|}' };
  const first = entry.fields[0];
  const unit = unitLabel(first.unit);
  return { template: `{${first.name}:round(${first.decimals})}`, ...(unit ? { unit } : {}) };
}

/** The chart on Trends for a card built from the catalogue, or undefined when it has no number to draw. */
function trendsFor(entry: CatalogueEntry, label: string): Record<string, unknown> | undefined {
  if (entry.shape === 'workouts' || entry.kind === 'any') return undefined;
  const several = countedByKind(entry) || ['bloodPressure', 'minAvgMax', 'glucose'].includes(entry.shape);
  const fields = several ? entry.fields : entry.fields.slice(0, 1);
  if (fields.length === 0) return undefined;
  const unit = unitLabel(fields[0].unit);
  return {
    enabled: true,
    component: entry.kind === 'sum' ? 'bar-chart' : 'line-chart',
    series: fields.map((f) => ({
      field: f.name,
      label: seriesLabel(entry, f.name, fields.length === 1 ? label : undefined),
    })),
    aggregate: entry.kind === 'sum' ? 'sum' : 'last',
    ...(unit ? { yAxisLabel: unit } : {}),
  };
}

/** A chart series' label: the card's label for its only series, an outcome in words, else the field. */
function seriesLabel(entry: CatalogueEntry, field: string, only: string | undefined): string {
  if (only !== undefined) return only;
  return countedByKind(entry) ? outcomeWords(field) : field;
}

function builtCard(entry: CatalogueEntry): MetricCard['manifest'] {
  const label = metricLabel(entry.key);
  const trends = trendsFor(entry, label);
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: entry.key.replace(/_/g, '-'),
      label,
      emoji: EMOJI[entry.category],
      category: entry.category,
      view: {
        enabled: true,
        component: 'generic-card',
        showSparkline: trends !== undefined,
        display: displayFor(entry),
      },
      ...(trends ? { trends } : {}),
      writeable: { fromWebapp: false },
      ingest: { source: 'hae', metric: entry.key },
    },
    description: `${label} from the phone (Health Auto Export, ${entry.key}), one row a day: ${entry.rowShape}.`,
    data: [],
  };
}

/**
 * The manifest of a new card for `metric` (a catalogue key or alias), with an id no card uses
 * (`steps`, else `steps-2`, ...).
 * @param templatesDir the folder of the shipped templates.
 * @param taken true for an id already in use.
 * @throws 422 naming `body.metric` when the catalogue does not know it (its samples are kept, but no
 * card can be fed from them).
 */
export function metricCard(metric: string, templatesDir: string, taken: (id: string) => boolean): MetricCard {
  const entry = resolveMetric(metric);
  if (!entry) {
    const message = `metric "${metric}" is not a metric of the Health Auto Export catalogue, so no card can be fed from it`;
    throw invalid(message, [{ path: 'body.metric', message }]);
  }
  const template = templateFor(entry, templatesDir);
  const manifest = structuredClone(template?.manifest ?? builtCard(entry));
  const meta = { ...manifest.meta, ingest: { source: 'hae', metric: entry.key } };
  const base = meta.id;
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return {
    manifest: { ...manifest, meta: { ...meta, id }, data: [] },
    template: template?.id ?? null,
  };
}
