/**
 * Hand-written spellings of `meta.notifications` read as what they mean at load
 * (docs/MANIFEST-SCHEMA.md "Hand-written spellings"): weekdays as the schedule block takes them
 * ("Mon", "Monday"), a time with one hour digit, seconds or am/pm, keywords in any case, the items
 * given as the block itself, an item without an id or label, a trigger written on the item.
 */
import { weekdayNumber } from '../common/schedule.js';
import { isNonEmptyString, isPlainObject } from './field-issues.js';
import { asBoolean, asKeyword, reread } from './hand-values.js';
import { NOTIFICATION_ID_PATTERN } from './validate-notifications.js';

const DAY_TOKENS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** `HH:MM` from `7:30`, `07:30:00`, `7:30 pm`, `12:05am`; else the value as it is. */
export function asClockTime(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const m = /^\s*(\d{1,2}):(\d{2})(?::\d{2})?\s*([ap])?\.?\s*(?:m\.?)?\s*$/i.exec(v);
  if (!m) return v;
  let h = Number(m[1]);
  const min = Number(m[2]);
  const half = m[3]?.toLowerCase();
  if (half) {
    if (h < 1 || h > 12) return v;
    h = (h % 12) + (half === 'p' ? 12 : 0);
  }
  if (h > 23 || min > 59) return v;
  return `${String(h).padStart(2, '0')}:${m[2]}`;
}

/** Weekday tokens (`mon` … `sun`) from names in any case or length, once each; else the value as it is. */
function asDays(v: unknown): unknown {
  const list = typeof v === 'string' ? v.split(/[\s,]+/).filter((s) => s !== '') : v;
  if (!Array.isArray(list)) return v;
  const days: string[] = [];
  for (const name of list) {
    const n = weekdayNumber(name);
    if (n === null) return v;
    if (!days.includes(DAY_TOKENS[n])) days.push(DAY_TOKENS[n]);
  }
  return days;
}

/** A trigger type in any case, `schedule-due` / `schedule due` for `schedule_due`. */
function asTriggerType(v: unknown): unknown {
  const k = asKeyword(v);
  return typeof k === 'string' ? k.replace(/[\s-]+/g, '_') : k;
}

/** An item id from text: lower case, spaces and other signs as `-`; undefined when none is left. */
function idFrom(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const id = text
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|-+$/g, '')
    .slice(0, 64);
  return NOTIFICATION_ID_PATTERN.test(id) ? id : undefined;
}

const TRIGGER_KEYS = ['type', 'time', 'days', 'card', 'time_of_day'] as const;

function readTrigger(item: Record<string, unknown>): void {
  if (item.trigger === undefined && (item.time !== undefined || item.days !== undefined)) {
    // the trigger's fields written on the item itself
    const trigger: Record<string, unknown> = {};
    for (const k of TRIGGER_KEYS) {
      if (item[k] === undefined) continue;
      trigger[k] = item[k];
      delete item[k];
    }
    item.trigger = trigger;
  }
  const t = item.trigger;
  if (!isPlainObject(t)) return;
  reread(t, 'type', asTriggerType);
  if (t.type === undefined)
    t.type = t.days !== undefined ? 'weekly' : t.card !== undefined ? 'schedule_due' : 'daily';
  reread(t, 'time', asClockTime);
  reread(t, 'days', asDays);
  reread(t, 'time_of_day', asKeyword);
  if (typeof t.card === 'string') t.card = t.card.trim();
}

/** Reads one item; true when its id was made from its label. */
function readItem(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  if (typeof item.id === 'string' && !NOTIFICATION_ID_PATTERN.test(item.id))
    item.id = idFrom(item.id) ?? item.id;
  if (item.label === undefined && isNonEmptyString(item.title)) item.label = item.title;
  let made = false;
  if (item.id === undefined) {
    const id = idFrom(item.label) ?? idFrom(item.title);
    if (id) item.id = id;
    made = id !== undefined;
  }
  readTrigger(item);
  if (isPlainObject(item.action)) {
    reread(item.action, 'type', asKeyword);
    reread(item.action, 'intent', asKeyword);
  }
  reread(item, 'privacy', asKeyword);
  reread(item, 'default', (v) => (v === true ? 'on' : v === false ? 'off' : asKeyword(v)));
  return made;
}

/** Rewrites `meta.notifications` (in a copy the loader owns) into the spelling the rules read. */
export function readNotificationSpellings(meta: Record<string, unknown>): void {
  // the reminders under the name the settings page gives them
  if (meta.notifications === undefined && meta.reminders !== undefined) {
    meta.notifications = meta.reminders;
    delete meta.reminders;
  }
  if (Array.isArray(meta.notifications)) meta.notifications = { items: meta.notifications };
  const block = meta.notifications;
  if (!isPlainObject(block)) return;
  reread(block, 'enabled', asBoolean);
  if (!Array.isArray(block.items)) return;
  const made = block.items.map(readItem);
  // an id made from a label that another item already has gets a number (`evening-2`)
  const taken = new Set(
    block.items
      .filter((it, i) => !made[i] && isPlainObject(it) && typeof it.id === 'string')
      .map((it) => it.id),
  );
  block.items.forEach((item, i) => {
    if (!made[i]) return;
    const it = item as Record<string, unknown>;
    const base = String(it.id).slice(0, 60);
    let id = String(it.id);
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    it.id = id;
    taken.add(id);
  });
}
