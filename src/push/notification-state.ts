/**
 * `HEALTH_HOME/notifications.state.json` (mode 0600, written atomically): what the person chose
 * per reminder (on/off, privacy) and what the scheduler remembers (the last slot handled, when it
 * last fired and how that went), plus quiet hours, a pause, and a ring of recent fires for
 * diagnostics. Reminder ids are `<card id>#<item id>`.
 */
import fs from 'node:fs';
import path from 'node:path';
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

  constructor(home: string) {
    this.file = path.join(home, 'notifications.state.json');
    this.data = empty();
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      if (parsed && typeof parsed === 'object') {
        this.data = {
          items: parsed.items && typeof parsed.items === 'object' ? parsed.items : {},
          quiet_hours: parsed.quiet_hours ?? null,
          paused_until: typeof parsed.paused_until === 'string' ? parsed.paused_until : null,
          recent_fires: Array.isArray(parsed.recent_fires) ? parsed.recent_fires : [],
        };
      }
    } catch {
      // absent or unreadable: start empty (reminders then fire from their next slot)
    }
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
    let dropped = false;
    for (const id of Object.keys(this.data.items)) {
      if (id.startsWith(`${cardId}#`)) {
        delete this.data.items[id];
        dropped = true;
      }
    }
    return dropped;
  }

  /**
   * Writes the state atomically (0600).
   * @throws the fs error; the file on disk is then the previous one.
   */
  save(): void {
    writeFileAtomic(this.file, `${JSON.stringify(this.data)}\n`, 0o600);
  }
}
