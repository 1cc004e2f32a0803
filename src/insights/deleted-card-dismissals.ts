/**
 * The nudges dismissed for a card follow it through a deletion and its undo: a card deleted
 * through the app, the API or a tool forgets them (a new card made later under the same id is
 * another card whose nudges show), but the keys are held in a file beside it (a restart in
 * between does not lose them), and a card brought back by an undo of its deletion gets them back,
 * so the nudge the person had dismissed does not show again. A card whose file vanishes by hand
 * keeps them (takeCardDismissals).
 */
import type { CardEvent } from '../cards/card-loader.js';
import { DeletedCardHold } from '../home/deleted-card-hold.js';
import { type DismissalFile, takeCardDismissals } from './dismissals.js';

const isKeyList = (v: unknown): v is string[] => Array.isArray(v) && v.every((k) => typeof k === 'string');

/**
 * Returns the card-event listener that does the above on `file` (the staleness dismissals),
 * holding a deleted card's keys in `holdFile`.
 * @throws the fs error of a failed write (the caller logs it; the files stay as they were).
 */
export function followCardDeletions(file: DismissalFile, holdFile: string): (e: CardEvent) => void {
  const held = new DeletedCardHold(holdFile, isKeyList);
  return (e) => {
    if (e.type === 'card-removed' && !e.mayReturn) {
      held.take(e.id);
      const keys = takeCardDismissals(file, e.id);
      if (keys.length > 0) held.hold(e.id, keys);
    } else if (e.type === 'card-changed') {
      const keys = held.take(e.id);
      if (e.restored && keys) for (const key of keys) file.add(key);
    }
  };
}
