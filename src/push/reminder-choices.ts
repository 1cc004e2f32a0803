/**
 * The person's reminder settings as an export archive and a snapshot carry them: each reminder's
 * on/off and privacy, quiet hours and a pause. The scheduler's memory (last slot, last fire,
 * recent fires) is left out on purpose: it belongs to the clock of the home that kept it, and a
 * reminder without it waits for its next slot instead of sending one from the past.
 */
import { instantStamp } from '../common/instants.js';
import { isQuietHours, type QuietHours, REMINDER_ID, type StateFile } from './notification-state.js';

/** One reminder's choices; an absent field is the card's default. */
export interface ReminderChoice {
  enabled?: boolean;
  privacy?: 'private' | 'public';
}

/** Reminder settings of a whole home. `items` keys are reminder ids, `<card id>#<item id>`. */
export interface ReminderChoices {
  items: Record<string, ReminderChoice>;
  quiet_hours: QuietHours | null;
  paused_until: string | null;
}

/** The card id of reminder id `<card id>#<item id>`. */
const cardOf = (reminderId: string) => reminderId.slice(0, reminderId.indexOf('#'));

/**
 * The choices kept in a notification state, items in id order (the same state always gives the
 * same JSON, so an export of an imported home has the archive's bytes).
 */
export function choicesOf(data: StateFile): ReminderChoices {
  const items: Record<string, ReminderChoice> = {};
  for (const id of Object.keys(data.items).sort()) {
    const { enabled, privacy } = data.items[id];
    if (enabled === undefined && privacy === undefined) continue;
    items[id] = { ...(enabled !== undefined ? { enabled } : {}), ...(privacy ? { privacy } : {}) };
  }
  return { items, quiet_hours: data.quiet_hours, paused_until: data.paused_until };
}

/** One field that does not hold what an export writes: its path below the choices, and why. */
export interface ChoiceProblem {
  path: string;
  message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkItem(id: string, v: unknown, problems: ChoiceProblem[]): ReminderChoice | undefined {
  const at = `items.${id}`;
  if (!REMINDER_ID.test(id)) {
    problems.push({ path: at, message: 'is not a reminder id (<card id>#<item id>)' });
    return undefined;
  }
  if (!isRecord(v)) {
    problems.push({ path: at, message: 'must be an object {enabled, privacy}' });
    return undefined;
  }
  const choice: ReminderChoice = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'enabled' && typeof x === 'boolean') choice.enabled = x;
    else if (k === 'privacy' && (x === 'private' || x === 'public')) choice.privacy = x;
    else if (k === 'enabled') problems.push({ path: `${at}.enabled`, message: 'must be true or false' });
    else if (k === 'privacy')
      problems.push({ path: `${at}.privacy`, message: 'must be "private" or "public"' });
    else problems.push({ path: `${at}.${k}`, message: 'is not a reminder setting' });
  }
  return choice;
}

function checkQuiet(v: unknown, problems: ChoiceProblem[]): QuietHours | null {
  if (v === null || v === undefined) return null;
  if (isQuietHours(v)) return { start: v.start, end: v.end };
  problems.push({ path: 'quiet_hours', message: 'must be null or {start, end}, two different HH:MM times' });
  return null;
}

/**
 * Checks reminder settings read from an archive (a file the person may have edited): every value
 * must be one Klebb writes, so nothing odd steers the scheduler after an import.
 * @returns the choices, or the problems (each with its path below the settings) when any.
 */
export function checkChoices(raw: unknown): { choices: ReminderChoices } | { problems: ChoiceProblem[] } {
  if (!isRecord(raw)) return { problems: [{ path: '', message: 'must be an object' }] };
  const problems: ChoiceProblem[] = [];
  const items: Record<string, ReminderChoice> = {};
  if (raw.items !== undefined && !isRecord(raw.items))
    problems.push({ path: 'items', message: 'must be an object of reminder ids' });
  else {
    for (const [id, v] of Object.entries(raw.items ?? {})) {
      const c = checkItem(id, v, problems);
      if (c) items[id] = c;
    }
  }
  const quiet = checkQuiet(raw.quiet_hours, problems);
  let pause: string | null = null;
  if (raw.paused_until !== null && raw.paused_until !== undefined) {
    pause = instantStamp(raw.paused_until);
    if (pause === null) problems.push({ path: 'paused_until', message: 'must be null or an ISO date-time' });
  }
  for (const k of Object.keys(raw)) {
    if (!['items', 'quiet_hours', 'paused_until'].includes(k))
      problems.push({ path: k, message: 'is not a reminder setting' });
  }
  if (problems.length > 0) return { problems };
  return { choices: { items, quiet_hours: quiet, paused_until: pause } };
}

/**
 * Makes the reminders of `cardIds` carry `choices` (replacing, never merging: a reminder the
 * choices do not name goes back to its card's default), and, when `whole` (the whole home is
 * replaced), quiet hours and the pause too. A reminder switched on or off loses its scheduler
 * memory, so switched on it waits for its next slot. Reminders of other cards are left alone.
 * @returns whether anything changed.
 */
export function adoptChoices(
  data: StateFile,
  choices: ReminderChoices,
  cardIds: readonly string[],
  whole: boolean,
): boolean {
  const cards = new Set(cardIds);
  let changed = false;
  const ids = new Set([...Object.keys(data.items), ...Object.keys(choices.items)]);
  for (const id of ids) {
    if (!cards.has(cardOf(id))) continue;
    const want = choices.items[id] ?? {};
    const cur = data.items[id] ?? {};
    if (cur.enabled === want.enabled && cur.privacy === want.privacy) continue;
    const next = { ...cur };
    if (cur.enabled !== want.enabled) delete next.trigger;
    if (want.enabled === undefined) delete next.enabled;
    else next.enabled = want.enabled;
    if (want.privacy === undefined) delete next.privacy;
    else next.privacy = want.privacy;
    data.items[id] = next;
    changed = true;
  }
  if (whole) {
    const q = choices.quiet_hours;
    if (JSON.stringify(q) !== JSON.stringify(data.quiet_hours)) {
      data.quiet_hours = q ? { ...q } : null;
      changed = true;
    }
    if (choices.paused_until !== data.paused_until) {
      data.paused_until = choices.paused_until;
      changed = true;
    }
  }
  return changed;
}
