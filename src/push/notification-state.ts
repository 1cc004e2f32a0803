/**
 * `HEALTH_HOME/notifications.state.json` (mode 0600, written atomically): what the person chose
 * per reminder (on/off, privacy) and what the scheduler remembers (the last slot handled, when it
 * last fired and how that went), plus quiet hours, a pause, and a ring of recent fires for
 * diagnostics. Reminder ids are `<card id>#<item id>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TRIGGER_TIME_PATTERN } from '../cards/validate-notifications.js';
import { instantStamp } from '../common/instants.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { RECENT_FIRES_KEPT } from '../limits.js';

/** The scheduler's memory and the person's choices for one reminder. */
export interface ItemState {
  enabled?: boolean;
  privacy?: 'private' | 'public';
  /** Canonical JSON of the trigger the memory below belongs to; another trigger clears it. */
  trigger?: string;
  /** The last slot handled (`YYYY-MM-DDTHH:MM`, wall clock), fired or not. */
  lastSlot?: string;
  /** The IANA time zone `lastSlot` was named in (absent in state written before it was kept). */
  lastSlotZone?: string;
  /** When the last push for it was attempted (ISO), and how it went. */
  lastFired?: string;
  lastFireStatus?: string;
  /** When the last test push was sent (ISO): one a minute. */
  lastTestAt?: string;
}

/** Quiet hours `HH:MM`–`HH:MM` in the user's time zone (start after end: over midnight). */
export interface QuietHours {
  start: string;
  end: string;
}

/** One entry of the recent-fires ring. */
export interface FireRecord {
  at: string;
  kind: 'scheduled' | 'test';
  card_id: string;
  items: string[];
  slot: string | null;
  status: string;
  sent: number;
  failed: number;
}

/** The whole file. */
export interface StateFile {
  items: Record<string, ItemState>;
  quiet_hours: QuietHours | null;
  paused_until: string | null;
  recent_fires: FireRecord[];
}

function empty(): StateFile {
  return { items: {}, quiet_hours: null, paused_until: null, recent_fires: [] };
}

/** The state of one home, cached in memory; `save()` writes it back. */
export class NotificationState {
  readonly file: string;
  data: StateFile;

  private readProblems: string[];

  constructor(home: string) {
    this.file = path.join(home, 'notifications.state.json');
    let text: string | undefined;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      // absent or unreadable: start empty (reminders then fire from their next slot)
    }
    const read = text === undefined ? { data: empty(), problems: [] } : readStateText(text);
    this.data = read.data;
    this.readProblems = read.problems;
  }

  /**
   * What was wrong in the file when it was read, one sentence each (a value the server never
   * writes, dropped so its setting is back to the default); empty when it read cleanly, and
   * from the first save on: the file then holds only what the server writes.
   */
  get problems(): readonly string[] {
    return this.readProblems;
  }

  /** The state of one reminder (created empty on first use). */
  item(id: string): ItemState {
    let s = this.data.items[id];
    if (!s) {
      s = {};
      this.data.items[id] = s;
    }
    return s;
  }

  /** The state of one reminder if any is kept. */
  peek(id: string): ItemState | undefined {
    return this.data.items[id];
  }

  /** Adds a fire to the ring (newest last, at most RECENT_FIRES_KEPT). */
  record(fire: FireRecord): void {
    this.data.recent_fires.push(fire);
    const over = this.data.recent_fires.length - RECENT_FIRES_KEPT;
    if (over > 0) this.data.recent_fires.splice(0, over);
  }

  /** Forgets every reminder of a card (the card was deleted). @returns whether anything went. */
  dropCard(cardId: string): boolean {
    return this.takeCard(cardId) !== null;
  }

  /**
   * Forgets every reminder of a card (the card was deleted) and returns the person's choices of
   * those that had any (reminder id → on/off and privacy): {} when none had, null when nothing
   * of the card was kept.
   */
  takeCard(cardId: string): Record<string, ItemState> | null {
    let choices: Record<string, ItemState> | null = null;
    for (const id of Object.keys(this.data.items)) {
      if (!id.startsWith(`${cardId}#`)) continue;
      choices ??= {};
      const { enabled, privacy } = this.data.items[id];
      if (enabled !== undefined || privacy !== undefined) choices[id] = { enabled, privacy };
      delete this.data.items[id];
    }
    return choices;
  }

  /**
   * Puts back choices `takeCard` returned (a deleted card brought back by an undo); the scheduler's
   * memory starts afresh. @returns whether anything changed.
   */
  putChoices(choices: Record<string, ItemState>): boolean {
    let changed = false;
    for (const [id, { enabled, privacy }] of Object.entries(choices)) {
      const s = this.item(id);
      if (enabled !== undefined && s.enabled !== enabled) {
        s.enabled = enabled;
        changed = true;
      }
      if (privacy !== undefined && s.privacy !== privacy) {
        s.privacy = privacy;
        changed = true;
      }
    }
    return changed;
  }

  /**
   * Writes the state atomically (0600); the problems read from the old file are then gone.
   * @throws the fs error; the file on disk is then the previous one (its problems stay listed).
   */
  save(): void {
    writeFileAtomic(this.file, `${JSON.stringify(this.data)}\n`, 0o600);
    this.readProblems = [];
  }
}

/** A reminder id: `<card id>#<item id>`. */
export const REMINDER_ID = /^[^#]+#.+$/;
const SLOT_KEY = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/** A JSON value in a few words for a warning, cut short so a huge value does not flood the log. */
function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The fields of one reminder's state that hold what the server writes; the names of the rest. */
function readItem(raw: Record<string, unknown>): { item: ItemState; dropped: string[] } {
  const item: ItemState = {};
  const dropped: string[] = [];
  for (const [key, v] of Object.entries(raw)) {
    if (key === 'enabled' && typeof v === 'boolean') item.enabled = v;
    else if (key === 'privacy' && (v === 'private' || v === 'public')) item.privacy = v;
    else if (key === 'trigger' && typeof v === 'string') item.trigger = v;
    else if (key === 'lastSlot' && typeof v === 'string' && SLOT_KEY.test(v)) item.lastSlot = v;
    else if (key === 'lastSlotZone' && typeof v === 'string' && v.length <= 64) item.lastSlotZone = v;
    else if ((key === 'lastFired' || key === 'lastTestAt') && instantStamp(v) !== null)
      item[key] = instantStamp(v) as string;
    else if (key === 'lastFireStatus' && typeof v === 'string') item.lastFireStatus = v;
    else dropped.push(key);
  }
  return { item, dropped };
}

function readItems(raw: unknown, problems: string[]): Record<string, ItemState> {
  const items: Record<string, ItemState> = {};
  if (raw === undefined) return items;
  if (!isRecord(raw)) {
    problems.push(
      `items was ${shown(raw)}, not an object of reminders; every reminder is back to its defaults`,
    );
    return items;
  }
  for (const [id, value] of Object.entries(raw)) {
    if (!REMINDER_ID.test(id)) {
      problems.push(`items: ${shown(id)} dropped, not a reminder id (<card id>#<item id>)`);
      continue;
    }
    if (!isRecord(value)) {
      problems.push(`items.${id} was ${shown(value)}, not an object; that reminder is back to its defaults`);
      continue;
    }
    const { item, dropped } = readItem(value);
    items[id] = item;
    if (dropped.length > 0) {
      problems.push(`items.${id}: ${dropped.join(', ')} dropped (not a value the server writes)`);
    }
  }
  return items;
}

/** Whether `v` is quiet hours as the server writes them: exactly {start, end}, two different HH:MM. */
export function isQuietHours(v: unknown): v is QuietHours {
  return (
    isRecord(v) &&
    Object.keys(v).length === 2 &&
    typeof v.start === 'string' &&
    typeof v.end === 'string' &&
    TRIGGER_TIME_PATTERN.test(v.start) &&
    TRIGGER_TIME_PATTERN.test(v.end) &&
    v.start !== v.end
  );
}

function readQuietHours(raw: unknown, problems: string[]): QuietHours | null {
  if (raw === undefined || raw === null) return null;
  if (isQuietHours(raw)) return { start: raw.start, end: raw.end };
  problems.push(
    `quiet_hours was ${shown(raw)}, not {start, end} as two different HH:MM times; quiet hours are off`,
  );
  return null;
}

function readPause(raw: unknown, problems: string[]): string | null {
  if (raw === undefined || raw === null) return null;
  const stamp = instantStamp(raw);
  if (stamp === null)
    problems.push(`paused_until was ${shown(raw)}, not an ISO date-time; reminders are not paused`);
  return stamp;
}

function isFire(v: unknown): v is FireRecord {
  return (
    isRecord(v) &&
    instantStamp(v.at) !== null &&
    (v.kind === 'scheduled' || v.kind === 'test') &&
    typeof v.card_id === 'string' &&
    Array.isArray(v.items) &&
    v.items.every((i) => typeof i === 'string') &&
    (v.slot === null || (typeof v.slot === 'string' && SLOT_KEY.test(v.slot))) &&
    typeof v.status === 'string' &&
    isCount(v.sent) &&
    isCount(v.failed)
  );
}

function readFires(raw: unknown, problems: string[]): FireRecord[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push(`recent_fires was ${shown(raw)}, not a list; the list of recent fires starts empty`);
    return [];
  }
  const fires = raw.filter(isFire).map((f) => ({
    at: instantStamp(f.at) as string,
    kind: f.kind,
    card_id: f.card_id,
    items: [...f.items],
    slot: f.slot,
    status: f.status,
    sent: f.sent,
    failed: f.failed,
  }));
  const bad = raw.length - fires.length;
  if (bad > 0)
    problems.push(
      `recent_fires: ${bad} entr${bad === 1 ? 'y' : 'ies'} not as the server writes them dropped`,
    );
  return fires.slice(-RECENT_FIRES_KEPT);
}

/**
 * Reads the text of a state file, keeping only values of the shapes the server writes: a value
 * edited by hand into something else (`quiet_hours: {"start": 5}`, `paused_until: "garbage"`)
 * would otherwise be shown back as a setting and steer the scheduler. Each dropped value is back
 * to its default and named in `problems`; text that is no JSON object starts the state empty.
 */
export function readStateText(text: string): { data: StateFile; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      data: empty(),
      problems: ['the file is not JSON; every reminder setting is back to its default'],
    };
  }
  if (!isRecord(parsed)) {
    return {
      data: empty(),
      problems: [
        `the file holds ${shown(parsed)}, not an object; every reminder setting is back to its default`,
      ],
    };
  }
  const problems: string[] = [];
  const data: StateFile = {
    items: readItems(parsed.items, problems),
    quiet_hours: readQuietHours(parsed.quiet_hours, problems),
    paused_until: readPause(parsed.paused_until, problems),
    recent_fires: readFires(parsed.recent_fires, problems),
  };
  const unknown = Object.keys(parsed).filter((k) => !(k in data));
  if (unknown.length > 0) problems.push(`unknown keys dropped: ${unknown.join(', ')}`);
  return { data, problems };
}
