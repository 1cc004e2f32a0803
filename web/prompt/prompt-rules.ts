/**
 * The daily prompt's rules (docs/MANIFEST-SCHEMA.md "prompt (daily modal)"; docs/MANIFEST-SCHEMA.md
 * "prompt"): which cards ask today, in which order, and how "already asked today" is remembered.
 * Pure: no DOM, no requests (the storage is passed in), so the rules can be checked without a
 * browser.
 *
 * `meta.prompt` is `{enabled (default false), mode: "modal" | "checklist", whenMissing (default
 * true)}`. A card asks on the person's today when the prompt is enabled, the card is switched on
 * and takes entries from the app today (`writeable.fromWebapp`, and the date allowance of
 * src/common/date-allowance.ts), it was not asked yet today (saved or dismissed), and:
 * - `modal`: it has inputs (src/common/inputs.ts) and its data is a list of rows (or empty);
 *   with `whenMissing`, only while no row is dated today (`meta.view.dateField`, default `date`);
 * - `checklist`: an item of its schedule (src/common/schedule.ts) is due today with a dose not yet
 *   taken; with `whenMissing`, only while no dose at all is logged for today.
 * Without `mode`, cards drawn by `checklist-card` or `schedule-card` use the checklist, others
 * the modal. Several cards queue by `meta.order` (absent = 1000), then label, then id.
 */
import { dateRefusal } from '../../src/common/date-allowance.js';
import { addDays, isIsoDate } from '../../src/common/dates.js';
import { getValue } from '../../src/common/display-template.js';
import { formInputs } from '../../src/common/inputs.js';
import { DEFAULT_CARD_ORDER } from '../../src/common/limits.js';
import { dueItems, scheduleItems, takenCount } from '../../src/common/schedule.js';
import { dayOf } from '../../src/common/trend.js';
import { writePolicyOf } from '../../src/common/write-policy.js';

/** How a card asks: its entry form, or one "Taken" button per item due today. */
export type PromptMode = 'modal' | 'checklist';

/** `meta.prompt` as read (defaults filled in). */
export interface PromptConfig {
  enabled: boolean;
  mode: PromptMode;
  whenMissing: boolean;
}

/** A card as the queue sees it: its id and its whole `meta`. */
export interface PromptCard {
  id: string;
  meta: Record<string, unknown>;
}

/** The start of the localStorage keys that remember a card was asked on a day. */
export const SHOWN_KEY_PREFIX = 'klebb-prompt-shown-';

/** How many days "asked" marks are kept before they are tidied away. */
export const SHOWN_KEEP_DAYS = 14;

/** Renderers whose cards ask with the checklist when `mode` is not given. */
const CHECKLIST_RENDERERS = ['checklist-card', 'schedule-card'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `meta.prompt` read leniently: anything but `enabled: true` is off; `whenMissing` is on unless `false`. */
export function promptConfigOf(meta: unknown): PromptConfig {
  const m = isObj(meta) ? meta : {};
  const p = isObj(m.prompt) ? m.prompt : {};
  const view = isObj(m.view) ? m.view : {};
  const mode: PromptMode =
    p.mode === 'checklist' || p.mode === 'modal'
      ? p.mode
      : CHECKLIST_RENDERERS.includes(view.component as string)
        ? 'checklist'
        : 'modal';
  return { enabled: p.enabled === true, mode, whenMissing: p.whenMissing !== false };
}

/** The row field holding a card's dates: `meta.view.dateField`, else `date` (as the entries route reads it). */
export function promptDateField(meta: unknown): string {
  const view = isObj(meta) && isObj(meta.view) ? meta.view : {};
  return typeof view.dateField === 'string' && view.dateField.trim() !== '' ? view.dateField : 'date';
}

/** The key remembering that card `cardId` was asked on `day`: `klebb-prompt-shown-{cardId}-{YYYY-MM-DD}`. */
export function shownKey(cardId: string, day: string): string {
  return `${SHOWN_KEY_PREFIX}${cardId}-${day}`;
}

/**
 * The cards that may ask at all (prompt enabled, card not switched off), in queue order:
 * `meta.order` (absent = 1000), then label, then id.
 */
export function promptCandidates(cards: readonly PromptCard[]): PromptCard[] {
  const order = (c: PromptCard) =>
    typeof c.meta.order === 'number' && Number.isFinite(c.meta.order) ? c.meta.order : DEFAULT_CARD_ORDER;
  const label = (c: PromptCard) => (typeof c.meta.label === 'string' ? c.meta.label : '');
  return cards
    .filter((c) => c.meta.enabled !== false && promptConfigOf(c.meta).enabled)
    .sort(
      (a, b) =>
        order(a) - order(b) || label(a).localeCompare(label(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

/** True when `data` (a list of rows) holds a row dated `day` in `dateField`. */
export function hasRowOn(data: unknown, dateField: string, day: string): boolean {
  return Array.isArray(data) && data.some((r) => isObj(r) && dayOf(getValue(r, dateField)) === day);
}

/**
 * Whether card `meta`, holding `data` (loaded), asks on `day` (the person's today), by the rules
 * in the file comment. "Already asked today" is not part of this; see `shownKey`.
 */
export function wantsPrompt(meta: unknown, data: unknown, day: string): boolean {
  const cfg = promptConfigOf(meta);
  if (!cfg.enabled || !isObj(meta) || meta.enabled === false) return false;
  const policy = writePolicyOf(meta);
  if (!policy.fromWebapp || dateRefusal(policy, day, day) !== null) return false;
  if (cfg.mode === 'modal') {
    if (formInputs(meta).length === 0) return false;
    if (data !== null && data !== undefined && !Array.isArray(data)) return false;
    return !(cfg.whenMissing && hasRowOn(data, promptDateField(meta), day));
  }
  const open = dueItems(data, day).some((r) => takenCount(r.item, day) < r.doses);
  if (!open) return false;
  return !(cfg.whenMissing && scheduleItems(data).some((r) => takenCount(r.item, day) > 0));
}

/**
 * The "asked" keys among `keys` that are older than `keepDays` days before `today` (to remove):
 * only keys of the form `shownKey` makes, with a real date at the end.
 */
export function staleShownKeys(keys: readonly string[], today: string, keepDays = SHOWN_KEEP_DAYS): string[] {
  const oldest = addDays(today, -keepDays);
  return keys.filter((k) => {
    const day = k.slice(-10);
    return k.startsWith(SHOWN_KEY_PREFIX) && isIsoDate(day) && day < oldest;
  });
}
