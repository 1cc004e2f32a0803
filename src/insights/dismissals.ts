/**
 * Nudges a person has dismissed, kept on the server in the home's `data/_meta` folder so a
 * dismissal made on the phone holds on the laptop too (and survives a cleared browser):
 * `hygiene-dismissed.json` (staleness nudges, keyed `<cardId>::<kind>`) and
 * `cc-suggestions-dismissed.json` (combined-view suggestions, keyed by the category and the
 * sorted ids of the cards suggested, so a suggestion with another set of cards shows again).
 * Each file is a JSON list of keys, oldest first, at most MAX_DISMISSALS_KEPT, written atomically;
 * a missing or unreadable file is an empty list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../home/atomic-write.js';
import { MAX_DISMISSALS_KEPT } from '../limits.js';

/** A set of dismissed keys kept in one file. */
export class DismissalFile {
  constructor(private readonly file: string) {}

  /** The keys dismissed so far. */
  read(): Set<string> {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return new Set(Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : []);
    } catch {
      return new Set();
    }
  }

  /**
   * Records `key` (once), keeping the newest MAX_DISMISSALS_KEPT keys (the file lists them oldest
   * first), so the file stays small whatever is sent.
   * @returns false when it was already dismissed.
   */
  add(key: string): boolean {
    const keys = this.read();
    if (keys.has(key)) return false;
    const kept = [...keys, key].slice(-MAX_DISMISSALS_KEPT);
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify(kept, null, 2)}\n`);
    return true;
  }

  /** Drops the keys `drop` picks, writing the file only when one went. @returns the keys dropped. */
  takeWhere(drop: (key: string) => boolean): string[] {
    const keys = [...this.read()];
    const kept = keys.filter((k) => !drop(k));
    if (kept.length === keys.length) return [];
    writeFileAtomic(this.file, `${JSON.stringify(kept, null, 2)}\n`);
    return keys.filter(drop);
  }
}

/**
 * Forgets the staleness and other nudges dismissed for card `id` (keys `<id>::<kind>`), for a card
 * deleted through the app, the API or a tool: its rows are gone with it, and a new card made
 * later under the same id (the same template added again) is another card whose nudges show.
 * A card whose file vanishes by hand keeps them, as it keeps its rows.
 * @returns the keys forgotten (for an undo of the deletion, deleted-card-dismissals.ts).
 * @throws the fs error of a failed write; the dismissals stay as they were.
 */
export function takeCardDismissals(file: DismissalFile, id: string): string[] {
  return file.takeWhere((key) => key.startsWith(`${id}::`));
}

/** The two dismissal files of a home whose instance metadata folder is `metaDir`. */
export function dismissalFiles(metaDir: string): { hygiene: DismissalFile; suggestions: DismissalFile } {
  return {
    hygiene: new DismissalFile(path.join(metaDir, 'hygiene-dismissed.json')),
    suggestions: new DismissalFile(path.join(metaDir, 'cc-suggestions-dismissed.json')),
  };
}
