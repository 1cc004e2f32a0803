/**
 * The reminder choices (on/off, privacy) of cards deleted on purpose, kept in
 * `HEALTH_HOME/notifications.deleted-cards.json` for an undo of the deletion, across restarts
 * (src/home/deleted-card-hold.ts).
 */
import path from 'node:path';
import { DeletedCardHold } from '../home/deleted-card-hold.js';
import { type ItemState, REMINDER_ID } from './notification-state.js';

/** Reminder id → the person's choices of it, as NotificationState.takeCard returns them. */
export type HeldChoices = Record<string, ItemState>;

function isChoice(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const { enabled, privacy, ...rest } = v as Record<string, unknown>;
  return (
    Object.keys(rest).length === 0 &&
    (enabled === undefined || typeof enabled === 'boolean') &&
    (privacy === undefined || privacy === 'private' || privacy === 'public')
  );
}

/** Whether `v` is choices as the server holds them: reminder ids to {enabled?, privacy?}. */
function isHeldChoices(v: unknown): v is HeldChoices {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return Object.entries(v).every(([id, c]) => REMINDER_ID.test(id) && isChoice(c));
}

/** The holder of the deleted cards' reminder choices of the home at `home`. */
export function deletedCardChoices(home: string): DeletedCardHold<HeldChoices> {
  return new DeletedCardHold(path.join(home, 'notifications.deleted-cards.json'), isHeldChoices);
}
