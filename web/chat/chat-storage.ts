/**
 * What the chat widget remembers in the browser:
 * - localStorage `klebb.chat.conversation`: the conversation last shown, reopened next time;
 * - localStorage `klebb.chat.legacyFolded`: the legacy transcript was folded (once per browser);
 * - sessionStorage `klebb.chat.open`: the panel was open (a reload of this tab reopens it);
 * - sessionStorage `klebb.chat.turn`: the turn in flight (`TurnSnapshot`), so that a reload in the
 *   middle of a turn reattaches after the last event it showed.
 * Storage can be missing or full (private mode): every helper then does nothing and returns null.
 */

const KEYS = {
  conversation: 'klebb.chat.conversation',
  legacyFolded: 'klebb.chat.legacyFolded',
  open: 'klebb.chat.open',
  turn: 'klebb.chat.turn',
} as const;

/** The turn in flight as last shown: `text` is what `lastEventId` (and every event before it) produced. */
export interface TurnSnapshot {
  conversationId: string;
  /** Id of the last event applied; undefined before the first one. */
  lastEventId?: number;
  /** The streamed answer text shown so far. */
  text: string;
  /** A voice turn: the reply's `speak` text is read aloud. */
  voice: boolean;
}

function get(store: 'local' | 'session', key: string): string | null {
  try {
    return (store === 'local' ? localStorage : sessionStorage).getItem(key);
  } catch {
    return null;
  }
}

function set(store: 'local' | 'session', key: string, value: string | null): void {
  try {
    const s = store === 'local' ? localStorage : sessionStorage;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // storage off or full: the widget still works, a reload just forgets
  }
}

/** The conversation id last shown, or null. */
export function storedConversationId(): string | null {
  return get('local', KEYS.conversation);
}

/** Remembers (or, with null, forgets) the conversation shown. */
export function storeConversationId(id: string | null): void {
  set('local', KEYS.conversation, id);
}

/** Whether this browser already folded the legacy transcript into a conversation. */
export function legacyFolded(): boolean {
  return get('local', KEYS.legacyFolded) === '1';
}

/** Marks the legacy transcript as folded. */
export function markLegacyFolded(): void {
  set('local', KEYS.legacyFolded, '1');
}

/** Whether the panel was open in this tab. */
export function storedOpen(): boolean {
  return get('session', KEYS.open) === '1';
}

/** Remembers whether the panel is open in this tab. */
export function storeOpen(open: boolean): void {
  set('session', KEYS.open, open ? '1' : null);
}

/** The turn in flight when this tab last saved it, or null (none, or unreadable). */
export function storedTurn(): TurnSnapshot | null {
  const raw = get('session', KEYS.turn);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<TurnSnapshot>;
    if (typeof v.conversationId !== 'string' || typeof v.text !== 'string') return null;
    const id =
      typeof v.lastEventId === 'number' && Number.isSafeInteger(v.lastEventId) ? v.lastEventId : undefined;
    return { conversationId: v.conversationId, lastEventId: id, text: v.text, voice: v.voice === true };
  } catch {
    return null;
  }
}

/**
 * Saves (or, with null, clears) the turn in flight. When the snapshot cannot be saved whole, the
 * old one is removed: a stale text with a newer id would lose words on reattach.
 */
export function storeTurn(snapshot: TurnSnapshot | null): void {
  if (snapshot === null) {
    set('session', KEYS.turn, null);
    return;
  }
  try {
    sessionStorage.setItem(KEYS.turn, JSON.stringify(snapshot));
  } catch {
    set('session', KEYS.turn, null);
  }
}
