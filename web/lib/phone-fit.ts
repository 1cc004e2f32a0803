/**
 * What each phone-fed card reads that the phone does not send (`GET
 * /api/health-auto-export/cards`), shared by every card on screen: one request for all of them,
 * made again when cards change or a phone-fed card's data changes (a push can bring rows of
 * another shape), never for a dashboard without phone-fed cards.
 */
import { signal } from '@preact/signals';
import { type FitProblem, readPhoneCards } from './phone-api.js';

/** Problems by card id, from the latest read (empty until the first one). */
export const phoneFit = signal<ReadonlyMap<string, FitProblem[]>>(new Map());

/** Keys (card list version, card data version) already asked for. */
const asked = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** Keys remembered (a long session sees a new data version after every push). */
const ASKED_MAX = 1000;
/** Reads arriving together (every card of a dashboard) make one request. */
const GATHER_MS = 50;

async function load(): Promise<void> {
  try {
    const { cards } = await readPhoneCards();
    phoneFit.value = new Map(cards.map((c) => [c.id, c.problems]));
  } catch {
    // the note is a hint: a failed read leaves the last answer on screen
  }
}

/** Asks for a read for `key` (a card's list and data versions); keys asked before cost nothing. */
export function wantPhoneFit(key: string): void {
  if (asked.has(key)) return;
  if (asked.size >= ASKED_MAX) asked.clear();
  asked.add(key);
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    void load();
  }, GATHER_MS);
}
