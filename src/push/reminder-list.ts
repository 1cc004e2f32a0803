/**
 * Every reminder of every card (`meta.notifications.items`, as served after the lenient load
 * dropped bad items), with the person's choices from the notification state applied: on/off
 * (default: the item's `default`, else on) and privacy (default: the item's, else private).
 */
import type { CardContext } from '../cards/card-context.js';
import type { Card } from '../cards/card-registry.js';
import type { NotificationState } from './notification-state.js';
import type { Trigger } from './trigger-slots.js';

/** One reminder of one card. */
export interface ReminderRef {
  /** `<card id>#<item id>`. */
  id: string;
  card: Card;
  itemId: string;
  item: Record<string, unknown>;
  trigger: Trigger;
  /** Canonical text of the trigger (a changed one resets the scheduler's memory). */
  triggerKey: string;
  enabled: boolean;
  privacy: 'private' | 'public';
  /** False when the card is switched off or its `notifications.enabled` is false. */
  active: boolean;
}

/** The trigger's fields in a fixed order, as text. */
export function triggerKeyOf(t: Trigger): string {
  return JSON.stringify([t.type, t.time, t.days ?? null, t.card ?? null, t.time_of_day ?? null]);
}

/** The reminders of one card. */
export function cardReminders(card: Card, state: NotificationState): ReminderRef[] {
  const meta = card.manifest.meta;
  const block = meta.notifications as { enabled?: unknown; items?: unknown } | undefined;
  if (!block || typeof block !== 'object' || !Array.isArray(block.items)) return [];
  const active = meta.enabled !== false && block.enabled !== false;
  const out: ReminderRef[] = [];
  for (const raw of block.items) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    const trigger = item.trigger as Trigger;
    if (typeof item.id !== 'string' || !trigger || typeof trigger.time !== 'string') continue;
    const id = `${card.id}#${item.id}`;
    const st = state.peek(id);
    out.push({
      id,
      card,
      itemId: item.id,
      item,
      trigger,
      triggerKey: triggerKeyOf(trigger),
      enabled: st?.enabled ?? item.default !== 'off',
      privacy: st?.privacy ?? (item.privacy === 'public' ? 'public' : 'private'),
      active,
    });
  }
  return out;
}

/** Every card's reminders, cards in registry order. */
export function listReminders(cards: CardContext, state: NotificationState): ReminderRef[] {
  return cards.registry.all().flatMap((c) => cardReminders(c, state));
}
