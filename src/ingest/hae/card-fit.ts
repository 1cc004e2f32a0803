/**
 * Does a phone-fed card read what the phone sends? A card subscribed with `meta.ingest` gets rows
 * `{date, <the metric's fields>}` (docs/HEALTH-AUTO-EXPORT.md "The metrics"); a headline, threshold,
 * trend arrow or chart that reads another field (`percent` where blood oxygen rows carry `pct`)
 * stays empty forever, and a unit label the metric is never converted to (`lb` on a weight card:
 * rows are always kg) shows wrong numbers. Both are refused when a card subscribes (create and
 * patch, 422 naming the manifest path) and, for a card already on disk, shown on the card.
 *
 * The rows the card holds are also compared: a field the catalogue allows but the phone does not
 * send (blood glucose read as `mgdl` while the phone's unit makes `mmol` rows; sleep stages from a
 * phone that records none) is reported with the fields the recent rows do carry.
 */
import type { CardContext } from '../../cards/card-context.js';
import { latestRowDay } from '../../cards/latest-day.js';
import { cardReads, cardUnitLabels } from '../../common/card-reads.js';
import type { FieldError } from '../../errors.js';
import type { SubscriberResult } from './cards.js';
import { type CatalogueEntry, resolveMetric } from './format/catalogue.js';
import { conversionOf, DIMENSIONS } from './format/units.js';

/** Recent rows compared with what the card reads (the last of them, by array order). */
export const FIT_RECENT_ROWS = 30;

/** One place where a card and its metric disagree. */
export interface FitProblem {
  /** `field`: the card reads a row field; `unit`: the card labels numbers with another unit. */
  kind: 'field' | 'unit';
  /** Manifest path of what reads it, e.g. `meta.view.display.template`. */
  where: string;
  /** The field the card reads, or the unit label it shows. */
  reads: string;
  /** What the phone sends instead: row fields (without `date`), or the one unit of the values. */
  sends: string[];
  /** Catalogue key of the card's metric. */
  metric: string;
  /** One sentence for the API answer. */
  message: string;
}

/** The catalogue entry of `meta.ingest` when it subscribes to a known metric. */
export function ingestEntry(meta: unknown): CatalogueEntry | undefined {
  if (meta === null || typeof meta !== 'object') return undefined;
  const ingest = (meta as Record<string, unknown>).ingest as
    | { source?: unknown; metric?: unknown }
    | undefined;
  if (ingest?.source !== 'hae' || typeof ingest.metric !== 'string') return undefined;
  return resolveMetric(ingest.metric);
}

function list(names: readonly string[]): string {
  return names.length ? names.join(', ') : 'nothing yet';
}

/** The card's unit labels that name another unit of the metric's dimension (a converted one). */
function unitProblems(meta: unknown, entry: CatalogueEntry): FitProblem[] {
  const units = new Set(entry.fields.map((f) => f.unit));
  if (units.size !== 1) return [];
  const canonical = [...units][0];
  const dimension = DIMENSIONS[entry.dimension];
  const out: FitProblem[] = [];
  for (const { where, unit } of cardUnitLabels(meta)) {
    const conv = conversionOf(dimension, unit);
    if (conv === undefined || conv === 1) continue;
    out.push({
      kind: 'unit',
      where,
      reads: unit,
      sends: [canonical],
      metric: entry.key,
      message: `${where} says "${unit}", but ${entry.key} values are always in ${canonical}`,
    });
  }
  return out;
}

/** The keys of the inputs of `meta.writeable` (the entry form's fields); [] when there are none. */
function inputKeys(meta: unknown): string[] {
  const inputs = (meta as { writeable?: { inputs?: unknown } } | null)?.writeable?.inputs;
  if (!Array.isArray(inputs)) return [];
  return inputs
    .map((i) => (i !== null && typeof i === 'object' ? (i as { key?: unknown }).key : undefined))
    .filter((k): k is string => typeof k === 'string');
}

/**
 * What `meta` reads that its metric never sends (fields and unit labels), from the catalogue
 * alone. [] for a card without a (known) subscription. Placeholders with a fallback are not
 * checked (see src/common/card-reads.ts).
 */
export function staticFitProblems(meta: unknown): FitProblem[] {
  const entry = ingestEntry(meta);
  if (!entry) return [];
  const fields = entry.fields.map((f) => f.name);
  // a field the card's own form asks for (pulse on a blood pressure card) is carried by the rows
  // people enter by hand, so reading it is no misfit
  const has = new Set(['date', ...fields, ...inputKeys(meta)]);
  const out: FitProblem[] = [];
  for (const read of cardReads(meta)) {
    if (read.optional || has.has(read.field)) continue;
    out.push({
      kind: 'field',
      where: read.where,
      reads: read.field,
      sends: fields,
      metric: entry.key,
      message: `${read.where} reads "${read.field}", which ${entry.key} rows never carry (they carry ${list(fields)})`,
    });
  }
  return [...out, ...unitProblems(meta, entry)];
}

/**
 * Metrics whose row counts what happened that day, one field per kind of event (an ECG's
 * classification, a test's result, a dose taken or skipped): a field missing from recent rows is
 * an event that did not occur lately, not one the phone never sends.
 */
const COUNTED_BY_KIND = new Set(['outcome', 'doses']);

/** True for a metric whose row counts events by kind, each kind a field present only when it occurred. */
export function countedByKind(entry: CatalogueEntry): boolean {
  return COUNTED_BY_KIND.has(entry.shape);
}

/**
 * staticFitProblems plus the fields the catalogue allows that none of `rows` (the card's recent
 * rows) carries while the rows carry others (not for metrics counted by kind of event, whose rows
 * carry only what occurred). `rows` may hold anything; only objects count.
 */
export function cardFitProblems(meta: unknown, rows: readonly unknown[]): FitProblem[] {
  const out = staticFitProblems(meta);
  const entry = ingestEntry(meta);
  if (!entry || countedByKind(entry)) return out;
  const present = new Set<string>();
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) continue;
    for (const k of Object.keys(row)) if (k !== 'date') present.add(k);
  }
  if (present.size === 0) return out;
  const known = new Set(entry.fields.map((f) => f.name));
  const sends = entry.fields.map((f) => f.name).filter((f) => present.has(f));
  const seen = new Set(out.map((p) => p.reads));
  for (const read of cardReads(meta)) {
    if (read.optional || !known.has(read.field) || present.has(read.field) || seen.has(read.field)) continue;
    seen.add(read.field);
    out.push({
      kind: 'field',
      where: read.where,
      reads: read.field,
      sends: sends.length ? sends : [...present],
      metric: entry.key,
      message: `${read.where} reads "${read.field}", but the phone's recent ${entry.key} rows carry ${list(sends.length ? sends : [...present])}`,
    });
  }
  return out;
}

/**
 * The create/patch check: staticFitProblems as field errors (`invalid ingest: ...`, path the
 * manifest path that reads the field), for a 422. `before`, on a patch: problems the card already
 * had are not refused again (the card shows them).
 */
export function ingestFitErrors(meta: unknown, before?: unknown): FieldError[] {
  const old = new Set(
    before === undefined ? [] : staticFitProblems(before).map((p) => `${p.where}\u0000${p.reads}`),
  );
  return staticFitProblems(meta)
    .filter((p) => !old.has(`${p.where}\u0000${p.reads}`))
    .map((p) => ({ path: p.where, message: `invalid ingest: ${p.message}` }));
}

/** One phone-fed card as `GET /api/health-auto-export/cards` lists it. */
export interface PhoneFedCard {
  id: string;
  label: string;
  emoji: string | null;
  /** Catalogue key of its metric. */
  metric: string;
  rowCount: number;
  /**
   * The latest day (`YYYY-MM-DD`) a row is filed under in the person's zone, or null: a plain
   * `2026-04-21` after `2026-04-21T03:30Z` (20 April in Los Angeles) is the 21st, though the
   * instant sorts later as text.
   */
  latestDate: string | null;
  /** What it reads that the phone does not send (cardFitProblems over its last FIT_RECENT_ROWS rows). */
  problems: FitProblem[];
}

/**
 * Every card subscribed to a known metric, in registry order, with what does not fit.
 * `timeZone` (the person's IANA zone; the server's when undefined) files instants on their day.
 */
export function phoneFedCards(
  ctx: Pick<CardContext, 'registry' | 'store'>,
  timeZone?: string,
): PhoneFedCard[] {
  const out: PhoneFedCard[] = [];
  for (const card of ctx.registry.all()) {
    const meta = card.manifest.meta;
    const entry = ingestEntry(meta);
    if (!entry) continue;
    const st = ctx.store.state(card.id);
    const rows = st.shape === 'array' ? ctx.store.newestRows(card.id, FIT_RECENT_ROWS) : [];
    out.push({
      id: card.id,
      label: typeof meta.label === 'string' ? meta.label : card.id,
      emoji: typeof meta.emoji === 'string' ? meta.emoji : null,
      metric: entry.key,
      rowCount: st.rowCount,
      latestDate: st.rowCount > 0 ? latestRowDay(ctx, card.id, 'date', timeZone) : null,
      problems: cardFitProblems(meta, rows),
    });
  }
  return out;
}

/**
 * After a push: for each card it wrote rows to, the fields the card reads that its recent rows do
 * not carry (cardFitProblems, fields only) go into the card's result as `misfits` and into the
 * push's warnings (`card glucose reads mgdl, but its blood_glucose rows carry mmol`), so a phone
 * whose data changed shape (another unit setting, no sleep stages) is seen at once.
 */
export function noteMisfits(
  ctx: Pick<CardContext, 'registry' | 'store'>,
  subscribers: SubscriberResult[],
  warn: (line: string) => void,
): void {
  for (const s of subscribers) {
    if (s.rowsWritten === 0) continue;
    const card = ctx.registry.get(s.id);
    if (!card) continue;
    const seen = new Set<string>();
    const misfits: { reads: string; sends: string[] }[] = [];
    const rows = ctx.store.newestRows(s.id, FIT_RECENT_ROWS);
    for (const p of cardFitProblems(card.manifest.meta, rows)) {
      if (p.kind !== 'field' || seen.has(p.reads)) continue;
      seen.add(p.reads);
      misfits.push({ reads: p.reads, sends: p.sends });
      warn(`card ${s.id} reads ${p.reads}, but its ${p.metric} rows carry ${list(p.sends)}`);
    }
    if (misfits.length) s.misfits = misfits;
  }
}
