/**
 * The row fields a card's manifest reads, and where (docs/MANIFEST-SCHEMA.md "display and the
 * template language", `line-chart`): the headline and secondary templates, `display.primary`,
 * threshold fields, the trend arrow, and chart series of every view config. One list for the
 * server (a phone-fed card whose fields the phone never sends is refused on create and patch)
 * and the browser (the card says which field it is missing). No Node imports.
 *
 * A placeholder with a fallback (`{note|}`) or a yes/no text (`{done?Yes:No}`) tolerates a missing
 * value by design, so it is listed as `optional`: a card reading it is not broken when the field
 * never comes.
 */
import { parseTemplate } from './display-template.js';

/** One field a card reads. */
export interface CardRead {
  /** Top-level row field (`bp.systolic` reads `bp`). */
  field: string;
  /** Manifest path that reads it, e.g. `meta.view.display.template`. */
  where: string;
  /** True when the card shows something sensible without it (a fallback or yes/no placeholder). */
  optional: boolean;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
/** The row's top-level field a path reads; an older `latest.` prefix names the shown row itself. */
const topField = (path: string): string => {
  const own = path.startsWith('latest.') ? path.slice('latest.'.length) : path;
  return own.split('.')[0] ?? own;
};

/** View configs of a manifest's `meta` that can name fields. */
const VIEW_KEYS = ['view', 'trends', 'calendar', 'reports', 'dayDetail'] as const;

function templateReads(template: unknown, where: string, out: CardRead[]): void {
  for (const part of parseTemplate(template)) {
    if (part.kind !== 'field') continue;
    const optional = part.fallback !== undefined || part.ternary !== undefined;
    out.push({ field: topField(part.key), where, optional });
  }
}

function displayReads(display: unknown, at: string, out: CardRead[]): void {
  if (!isObj(display)) return;
  templateReads(
    display.template ?? display.format,
    `${at}.${display.template !== undefined ? 'template' : 'format'}`,
    out,
  );
  templateReads(display.secondary, `${at}.secondary`, out);
  const primary = nonEmpty(display.primary);
  if (primary) {
    out.push({ field: topField(primary), where: `${at}.primary`, optional: false });
  }
  if (Array.isArray(display.thresholds)) {
    display.thresholds.forEach((rule, i) => {
      if (!isObj(rule)) return;
      const field = nonEmpty(rule.ifField) ?? nonEmpty(rule.field);
      if (field) out.push({ field: topField(field), where: `${at}.thresholds.${i}`, optional: false });
    });
  }
  if (isObj(display.trendArrow)) {
    const field = nonEmpty(display.trendArrow.field);
    if (field) out.push({ field: topField(field), where: `${at}.trendArrow.field`, optional: false });
  }
}

function seriesReads(cfg: Obj, at: string, out: CardRead[]): void {
  if (Array.isArray(cfg.series) && cfg.series.length > 0) {
    cfg.series.forEach((s, i) => {
      const field = typeof s === 'string' ? nonEmpty(s) : isObj(s) ? nonEmpty(s.field) : undefined;
      if (field) out.push({ field: topField(field), where: `${at}.series.${i}`, optional: false });
    });
    return;
  }
  const legacy = Array.isArray(cfg.yKey) ? cfg.yKey : [cfg.yKey];
  legacy.forEach((k) => {
    const field = nonEmpty(k);
    if (field) out.push({ field: topField(field), where: `${at}.yKey`, optional: false });
  });
}

/**
 * Every row field `meta` reads, in manifest order (a field read in several places is listed once
 * per place). Anything off-type is skipped (never throws).
 */
export function cardReads(meta: unknown): CardRead[] {
  const out: CardRead[] = [];
  if (!isObj(meta)) return out;
  for (const key of VIEW_KEYS) {
    const cfg = meta[key];
    if (!isObj(cfg)) continue;
    const at = `meta.${key}`;
    displayReads(cfg.display, `${at}.display`, out);
    const component = typeof cfg.component === 'string' ? cfg.component : '';
    if (/chart$/.test(component)) seriesReads(cfg, at, out);
  }
  return out;
}

/**
 * The unit labels a card shows next to its numbers: `display.unit` of each view config and a
 * chart's `yAxisLabel` (older `unit`), with their paths.
 */
export function cardUnitLabels(meta: unknown): { where: string; unit: string }[] {
  const out: { where: string; unit: string }[] = [];
  if (!isObj(meta)) return out;
  for (const key of VIEW_KEYS) {
    const cfg = meta[key];
    if (!isObj(cfg)) continue;
    const unit = isObj(cfg.display) ? nonEmpty(cfg.display.unit) : undefined;
    if (unit) out.push({ where: `meta.${key}.display.unit`, unit });
    const axis = nonEmpty(cfg.yAxisLabel);
    if (axis) out.push({ where: `meta.${key}.yAxisLabel`, unit: axis });
  }
  return out;
}
