/**
 * What a card deleted on purpose leaves behind that is not in its file or rows (the person's
 * reminder choices, the nudges they dismissed), held in a small file of the home until the card
 * comes back by an undo of its deletion (then given back) or another card is made under its id
 * (then dropped). Held in memory only, an undo after a restart of the server brought the card
 * back with every reminder off and its dismissed nudges showing again, although History offers
 * that undo for weeks. The newest DELETED_CHOICES_KEPT deletions are kept, the oldest go first.
 *
 * The file is `{"cards": [{"id": "<card id>", "value": …}, …]}`, oldest first, written atomically
 * (mode 0600: reminder choices name the person's cards). A file that does not read (edited by
 * hand, cut short) holds nothing: what it held is lost, nothing else is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DELETED_CHOICES_KEPT } from '../limits.js';
import { writeFileAtomic } from './atomic-write.js';

/** The held values of deleted cards, by card id, kept in `file`. */
export class DeletedCardHold<T> {
  private held: Map<string, T> | undefined;

  /**
   * @param file where the values are kept (created at the first hold).
   * @param isValue whether a value read back from the file is one this holder writes; others are dropped.
   */
  constructor(
    readonly file: string,
    private readonly isValue: (v: unknown) => v is T,
  ) {}

  /**
   * Keeps `value` for card `cardId` (replacing what was held for it) as the newest.
   * @throws the fs error of a failed write; what was held before stays, in memory and on disk.
   */
  hold(cardId: string, value: T): void {
    const next = new Map(this.read());
    next.delete(cardId);
    next.set(cardId, value);
    for (const id of next.keys()) {
      if (next.size <= DELETED_CHOICES_KEPT) break;
      next.delete(id);
    }
    this.write(next);
  }

  /**
   * Gives back and forgets what is held for card `cardId` (undefined when nothing is); writes the
   * file only when something was held.
   * @throws the fs error of a failed write; the value then stays held.
   */
  take(cardId: string): T | undefined {
    const held = this.read();
    if (!held.has(cardId)) return undefined;
    const value = held.get(cardId) as T;
    const next = new Map(held);
    next.delete(cardId);
    this.write(next);
    return value;
  }

  private read(): Map<string, T> {
    if (this.held) return this.held;
    const held = new Map<string, T>();
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { cards?: unknown };
      for (const e of Array.isArray(parsed?.cards) ? parsed.cards : []) {
        const entry = e as { id?: unknown; value?: unknown } | null;
        if (typeof entry?.id === 'string' && this.isValue(entry.value)) held.set(entry.id, entry.value);
      }
    } catch {
      // absent (nothing deleted yet) or unreadable: nothing is held
    }
    this.held = held;
    return held;
  }

  private write(next: Map<string, T>): void {
    const cards = [...next].map(([id, value]) => ({ id, value }));
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify({ cards })}\n`, 0o600);
    this.held = next;
  }
}
