/**
 * The nudges dismissed for a card follow it through a deletion and its undo: a card deleted
 * through the app, the API or a tool forgets them (a new card made later under the same id is
 * another card whose nudges show), but the keys are held in memory, and a card brought back by an
 * undo of its deletion gets them back, so the nudge the person had dismissed does not show again.
 * A card whose file vanishes by hand keeps them (takeCardDismissals).
 */
import type { CardEvent } from '../cards/card-loader.js';
import { DELETED_CHOICES_KEPT } from '../limits.js';
import { type DismissalFile, takeCardDismissals } from './dismissals.js';

/**
 * Returns the card-event listener that does the above on `file` (the staleness dismissals).
 * @throws the fs error of a failed write (the caller logs it; the file stays as it was).
 */
export function followCardDeletions(file: DismissalFile): (e: CardEvent) => void {
  const held = new Map<string, string[]>();
  return (e) => {
    if (e.type === 'card-removed' && !e.mayReturn) {
      const keys = takeCardDismissals(file, e.id);
      held.delete(e.id);
      if (keys.length === 0) return;
      held.set(e.id, keys);
      for (const id of held.keys()) {
        if (held.size <= DELETED_CHOICES_KEPT) break;
        held.delete(id);
      }
    } else if (e.type === 'card-changed') {
      const keys = held.get(e.id);
      held.delete(e.id);
      if (e.restored && keys) for (const key of keys) file.add(key);
    }
  };
}
