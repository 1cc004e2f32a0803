/**
 * What a person typed into a new entry, kept across a sign-in. A session that ends while a form
 * is open (30 days passed, signed out in another tab, its passkey removed) sends the page to the
 * sign-in page at the next request, which is usually the Save itself: without this, a long journal
 * entry was gone. Before the page leaves, every open form that registered a key writes its values
 * to sessionStorage (this tab only, gone when the tab closes); when the same form opens again
 * after the sign-in it takes them back, once. Only forms that add an entry register: an edit
 * form's values would be put back over a row that may have changed meanwhile.
 */
import { whenSignedOut } from '../auth/session-expiry.js';
import type { FormValues } from './form-values.js';

const PREFIX = 'klebb.entry-draft.';
/** A draft older than this is not offered again (a tab left on the sign-in page overnight). */
const KEEP_MS = 12 * 60 * 60 * 1000;

interface OpenForm {
  values(): FormValues;
  initial: string;
}

const open = new Map<string, OpenForm>();
let registered = false;

/**
 * The key of a card's add form for a day: one draft per card, day and place (`card` on the card
 * itself, `prompt` in the daily prompt, which opens on its own and must not take the card's).
 */
export function addDraftKey(cardId: string, day: string | null, place: 'card' | 'prompt' = 'card'): string {
  return `${cardId}\u0000${day ?? ''}${place === 'card' ? '' : `\u0000${place}`}`;
}

function keepOpenDrafts(): void {
  for (const [key, form] of open) {
    const values = form.values();
    const text = JSON.stringify(values);
    if (text === form.initial) continue; // nothing typed: nothing to bring back
    try {
      sessionStorage.setItem(PREFIX + key, JSON.stringify({ at: Date.now(), values }));
    } catch {
      // storage full or refused (private mode): the page leaves as before
    }
  }
}

/**
 * Registers an open form under `key`: `values` reads what it holds now, `initial` what it opened
 * with (a form left as it opened is not kept). Returns the function that unregisters it.
 */
export function holdDraft(key: string, values: () => FormValues, initial: FormValues): () => void {
  if (!registered) {
    registered = true;
    whenSignedOut(keepOpenDrafts);
  }
  const entry = { values, initial: JSON.stringify(initial) };
  open.set(key, entry);
  return () => {
    if (open.get(key) === entry) open.delete(key);
  };
}

function read(key: string): FormValues | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const kept = JSON.parse(raw) as { at?: unknown; values?: unknown };
    const fresh = typeof kept.at === 'number' && Date.now() - kept.at < KEEP_MS;
    const values = kept.values;
    return fresh && values !== null && typeof values === 'object' && !Array.isArray(values)
      ? (values as FormValues)
      : null;
  } catch {
    return null;
  }
}

/** True when a kept draft waits under `key` (the card opens its form for it). */
export function hasDraft(key: string): boolean {
  return read(key) !== null;
}

/** The values kept under `key`, removed as they are taken (null when none, or too old). */
export function takeDraft(key: string): FormValues | null {
  const values = read(key);
  try {
    sessionStorage.removeItem(PREFIX + key);
  } catch {
    // nothing kept
  }
  return values;
}
