/**
 * A chat message written while the session ended (30 days passed, signed out in another tab)
 * is not lost: its send met a 401 and the page went to the sign-in page. Before the page leaves,
 * the message (in the box, or on its way) is kept in sessionStorage (this tab only, gone with the
 * tab); the composer opened after the sign-in takes it back into the box, once.
 */
import { whenSignedOut } from '../auth/session-expiry.js';
import { draft } from './chat-state.js';

const KEY = 'klebb.chat-draft';
/** A kept message older than this is not put back (a tab left on the sign-in page overnight). */
const KEEP_MS = 12 * 60 * 60 * 1000;

let sending = '';
let registered = false;

function keep(): void {
  const text = draft.value.trim() ? draft.value : sending;
  if (!text.trim()) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), text }));
  } catch {
    // storage refused: the page leaves as before
  }
}

/** Keeps the chat's message when the page leaves for the sign-in page (call once the composer shows). */
export function keepChatDraftOnSignOut(): void {
  if (registered) return;
  registered = true;
  whenSignedOut(keep);
}

/** The message being sent (taken out of the box), '' once its send settled. */
export function noteSending(text: string): void {
  sending = text;
}

/** The kept message, removed as it is taken (null when none, or too old). */
export function takeChatDraft(): string | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (raw === null) return null;
    const kept = JSON.parse(raw) as { at?: unknown; text?: unknown };
    return typeof kept.at === 'number' && Date.now() - kept.at < KEEP_MS && typeof kept.text === 'string'
      ? kept.text
      : null;
  } catch {
    return null;
  }
}
