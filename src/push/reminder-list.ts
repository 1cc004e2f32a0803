/**
 * Every reminder of every card (`meta.notifications.items`, as served after the lenient load
 * dropped bad items), with the person's choices from the notification state applied: on/off
 * (default: the item's `default`, else on) and privacy (default: the item's, else private).
 */
import type { CardContext } from '../cards/card-context.js';
import type { Card } from '../cards/card-registry.js';
import type { ItemState, NotificationState } from './notification-state.js';
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

/** The parts of a reminder that change only with its card's manifest. */
export interface StaticRef {
  id: string;
  itemId: string;
  item: Record<string, unknown>;
  trigger: Trigger;
  triggerKey: string;
}

/** Per `meta.notifications` object (replaced whenever the card changes): its reminders' static parts. */
const staticCache = new WeakMap<object, StaticRef[]>();

function staticRefs(cardId: string, block: { items?: unknown }): StaticRef[] {
  let refs = staticCache.get(block);
  if (refs) return refs;
  refs = [];
  for (const raw of Array.isArray(block.items) ? block.items : []) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    const trigger = item.trigger as Trigger;
    if (typeof item.id !== 'string' || !trigger || typeof trigger.time !== 'string') continue;
    refs.push({
      id: `${cardId}#${item.id}`,
      itemId: item.id,
      item,
      trigger,
      triggerKey: triggerKeyOf(trigger),
    });
  }
  staticCache.set(block, refs);
  return refs;
}

/**
 * The reminders of a card as cached parts, and whether the card's reminders are active (card
 * shown, `notifications.enabled` not false). Cheap to call every minute.
 */
export function reminderParts(card: Card): { active: boolean; refs: StaticRef[] } {
  const meta = card.manifest.meta;
  const block = meta.notifications as { enabled?: unknown; items?: unknown } | undefined;
  if (!block || typeof block !== 'object' || !Array.isArray(block.items)) return { active: false, refs: [] };
  return { active: meta.enabled !== false && block.enabled !== false, refs: staticRefs(card.id, block) };
}

/** A reminder's full reference from its cached parts and its state. */
export function fullRef(card: Card, r: StaticRef, st: ItemState | undefined, active: boolean): ReminderRef {
  return {
    ...r,
    card,
    enabled: st?.enabled ?? r.item.default !== 'off',
    privacy: st?.privacy ?? (r.item.privacy === 'public' ? 'public' : 'private'),
    active,
  };
}

/**
 * The reminders of one card. With `onlyOn`, only those that are active and switched on (what
 * the scheduler looks at each minute).
 */
export function cardReminders(card: Card, state: NotificationState, onlyOn = false): ReminderRef[] {
  const meta = card.manifest.meta;
  const block = meta.notifications as { enabled?: unknown; items?: unknown } | undefined;
  if (!block || typeof block !== 'object' || !Array.isArray(block.items)) return [];
  const active = meta.enabled !== false && block.enabled !== false;
  if (onlyOn && !active) return [];
  const out: ReminderRef[] = [];
  for (const r of staticRefs(card.id, block)) {
    const st = state.peek(r.id);
    const enabled = st?.enabled ?? r.item.default !== 'off';
    if (onlyOn && !enabled) continue;
    out.push(fullRef(card, r, st, active));
  }
  return out;
}

/** Every card's reminders, cards in registry order. */
export function listReminders(cards: CardContext, state: NotificationState): ReminderRef[] {
  return cards.registry.all().flatMap((c) => cardReminders(c, state));
}
