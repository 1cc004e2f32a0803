/**
 * `meta.notifications` (docs/MANIFEST-SCHEMA.md "notifications"; limits as the
 * set_notification tool states them): `{enabled?, items?: [...]}`. Strict on create/patch (422
 * `invalid notifications: ...`); at load a bad item is dropped, not the whole block.
 */
import { overLimit } from '../common/graphemes.js';
import {
  MAX_NOTIFICATION_BODY_CHARS,
  MAX_NOTIFICATION_ITEMS,
  MAX_NOTIFICATION_LABEL_CHARS,
  MAX_NOTIFICATION_TITLE_CHARS,
} from '../limits.js';
import {
  describeValue,
  formatPath,
  type Issue,
  isNonEmptyString,
  isPlainObject,
  isWellFormedText,
  type Segment,
} from './field-issues.js';
import { isTimeOfDay, TIME_OF_DAY_TOKENS } from './validate-schedule.js';

/** Notification item id pattern. */
export const NOTIFICATION_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** 24-hour wall-clock time `HH:MM` of a trigger. */
export const TRIGGER_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Weekday tokens of a `weekly` trigger. */
export const WEEKDAY_TOKENS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** Trigger types. */
export const TRIGGER_TYPES = ['daily', 'weekly', 'schedule_due'] as const;

/** Collects the problems of one notification item; `where` is the failing field's path. */
type Report = (where: Segment[], detail: string) => void;

function checkText(item: Record<string, unknown>, key: string, max: number, at: Segment[], report: Report) {
  const v = item[key];
  // characters as a person counts them: a ZWJ family, a flag or an accented letter is one
  const over = typeof v === 'string' ? overLimit(v, max) : null;
  if (!isNonEmptyString(v)) {
    report([...at, key], `must be a non-empty string, got ${describeValue(v)}`);
  } else if (over !== null) {
    report(
      [...at, key],
      `must be at most ${max} characters (got ${over === 'too long' ? 'far more' : over})`,
    );
  } else if (!isWellFormedText(v)) {
    report([...at, key], 'must be well-formed text (it holds a lone UTF-16 surrogate)');
  }
}

function checkTrigger(trigger: unknown, at: Segment[], report: Report) {
  if (!isPlainObject(trigger)) {
    report(at, `must be an object {type, time, ...}, got ${describeValue(trigger)}`);
    return;
  }
  const type = trigger.type;
  if (!(TRIGGER_TYPES as readonly unknown[]).includes(type)) {
    report([...at, 'type'], `must be one of ${TRIGGER_TYPES.join('|')}, got ${describeValue(type)}`);
    return;
  }
  if (typeof trigger.time !== 'string' || !TRIGGER_TIME_PATTERN.test(trigger.time)) {
    report([...at, 'time'], `must be a 24-hour time "HH:MM", got ${describeValue(trigger.time)}`);
  }
  if (type === 'weekly') {
    const days = trigger.days;
    if (!Array.isArray(days) || days.length === 0) {
      report([...at, 'days'], `must be a non-empty array of ${WEEKDAY_TOKENS.join('|')}`);
    } else if (days.some((d) => !(WEEKDAY_TOKENS as readonly unknown[]).includes(d))) {
      report([...at, 'days'], `must hold only ${WEEKDAY_TOKENS.join('|')}, got ${describeValue(days)}`);
    } else if (new Set(days).size !== days.length) {
      report([...at, 'days'], 'must not repeat a day');
    }
  }
  if (type === 'schedule_due') {
    if (!isNonEmptyString(trigger.card)) {
      report([...at, 'card'], `must be the id of a schedule card, got ${describeValue(trigger.card)}`);
    }
    if (!isTimeOfDay(trigger.time_of_day)) {
      report(
        [...at, 'time_of_day'],
        `must be one of ${TIME_OF_DAY_TOKENS.join('|')}, got ${describeValue(trigger.time_of_day)}`,
      );
    }
  }
}

function checkAction(action: unknown, at: Segment[], report: Report) {
  if (action === undefined) return;
  if (!isPlainObject(action)) {
    report(at, `must be an object {type: "open-card", card?, intent?}, got ${describeValue(action)}`);
    return;
  }
  if (action.type !== 'open-card')
    report([...at, 'type'], `must be "open-card", got ${describeValue(action.type)}`);
  if (action.card !== undefined && !isNonEmptyString(action.card)) {
    report([...at, 'card'], `must be a card id, got ${describeValue(action.card)}`);
  }
  if (action.intent !== undefined && action.intent !== 'view' && action.intent !== 'log') {
    report([...at, 'intent'], `must be "view" or "log", got ${describeValue(action.intent)}`);
  }
}

function checkItem(item: unknown, at: Segment[], report: Report) {
  if (!isPlainObject(item)) {
    report(at, `must be an object, got ${describeValue(item)}`);
    return;
  }
  if (typeof item.id !== 'string' || !NOTIFICATION_ID_PATTERN.test(item.id)) {
    report([...at, 'id'], `must match /^[a-z0-9][a-z0-9._-]{0,63}$/, got ${describeValue(item.id)}`);
  }
  checkText(item, 'label', MAX_NOTIFICATION_LABEL_CHARS, at, report);
  checkText(item, 'title', MAX_NOTIFICATION_TITLE_CHARS, at, report);
  checkText(item, 'body', MAX_NOTIFICATION_BODY_CHARS, at, report);
  checkTrigger(item.trigger, [...at, 'trigger'], report);
  checkAction(item.action, [...at, 'action'], report);
  if (item.privacy !== undefined && item.privacy !== 'private' && item.privacy !== 'public') {
    report([...at, 'privacy'], `must be "private" or "public", got ${describeValue(item.privacy)}`);
  }
  if (item.default !== undefined && item.default !== 'on' && item.default !== 'off') {
    report([...at, 'default'], `must be "on" or "off", got ${describeValue(item.default)}`);
  }
}

/**
 * Strict check of `meta.notifications` when present (`at` is its path, normally
 * `['meta', 'notifications']`). Every message starts with `invalid notifications: ` and names the
 * field. Lenient drops: a non-object block whole; a bad `enabled` or non-array `items` key; each
 * bad item; the later of two items sharing an id; items beyond the 10th.
 */
export function checkNotifications(value: unknown, at: Segment[]): Issue[] {
  if (value === undefined) return [];
  const issues: Issue[] = [];
  const add = (where: Segment[], detail: string, drop: Segment[]) =>
    issues.push({
      path: where,
      drops: [drop],
      message: `invalid notifications: ${formatPath(where)} ${detail}`,
    });
  if (!isPlainObject(value)) {
    add(at, `must be an object {enabled?, items: [...]}, got ${describeValue(value)}`, at);
    return issues;
  }
  if (value.enabled !== undefined && typeof value.enabled !== 'boolean') {
    add([...at, 'enabled'], `must be a boolean, got ${describeValue(value.enabled)}`, [...at, 'enabled']);
  }
  const items = value.items;
  if (items === undefined) return issues;
  const itemsAt = [...at, 'items'];
  if (!Array.isArray(items)) {
    add(itemsAt, `must be an array, got ${describeValue(items)}`, itemsAt);
    return issues;
  }
  if (items.length > MAX_NOTIFICATION_ITEMS) {
    issues.push({
      path: itemsAt,
      drops: items.slice(MAX_NOTIFICATION_ITEMS).map((_, k) => [...itemsAt, MAX_NOTIFICATION_ITEMS + k]),
      message: `invalid notifications: ${formatPath(itemsAt)} must hold at most ${MAX_NOTIFICATION_ITEMS} items (got ${items.length})`,
    });
  }
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const itemAt = [...itemsAt, i];
    checkItem(item, itemAt, (where, detail) => add(where, detail, itemAt));
    if (isPlainObject(item) && typeof item.id === 'string') {
      if (seen.has(item.id))
        add([...itemAt, 'id'], `duplicates the id "${item.id}" of an earlier item`, itemAt);
      seen.add(item.id);
    }
  });
  return issues;
}
