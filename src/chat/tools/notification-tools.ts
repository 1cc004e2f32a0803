/**
 * Reminder tools (set_notification / remove_notification). Reminders live in the
 * card's `meta.notifications.items`; every change goes through patchCard, so the manifest
 * validator's limits (title <= 30, body <= 80, label <= 80, at most 10 items, daily and weekly
 * triggers) are the only copy of those rules. The result says whether the reminder will reach
 * a device (src/push/), so the model never promises one that cannot arrive.
 */
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { requireCard } from '../../cards/card-context.js';
import { checkPatch, patchCard } from '../../cards/card-crud.js';
import { sameJson } from '../../common/canonical-json.js';
import { KlebbError } from '../../errors.js';
import { Privacy } from '../../schemas/notifications.js';
import { removeReminderApproval } from './approval-policy.js';
import { defineTool, type ToolContext } from './tool.js';

/** Latin letters that have no decomposition into a base letter and a mark. */
const LATIN_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * A reminder id from its label: lowercase slug of `[a-z0-9-]`, at most 64 characters. Accents
 * are dropped, not turned into dashes ("Médicament" → `medicament`, "Straße" → `strasse`, in NFC
 * or NFD alike). A label with no Latin letters or digits (e.g. "体重を測る") gets
 * `reminder-<hash>` so that two such labels never share an id.
 */
export function notificationSlug(label: string): string {
  const slug = label
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => LATIN_LETTERS[c])
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug || `reminder-${createHash('sha256').update(label).digest('hex').slice(0, 8)}`;
}

/**
 * The id for a new reminder without an explicit id: its slug, or the slug with `-2`, `-3` ...
 * when an item of another label already holds it (an item with the same label is the same
 * reminder: set_notification updates it).
 */
function idForLabel(label: string, items: Item[]): string {
  const base = notificationSlug(label);
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base.slice(0, 60)}-${n}`;
    const holder = items.find((it) => it.id === id);
    if (!holder || holder.label === label) return id;
  }
}

/** What the model should tell the user when a saved reminder will not arrive, by reason. */
export function deliveryAdvice(reason: string | null): string {
  switch (reason) {
    case 'paused':
      return 'The reminder is saved, but reminders are paused: they resume when the pause ends (Settings › Notifications).';
    case 'switched-off':
      return 'The reminder is saved but switched off: turn it on in Settings › Notifications.';
    case 'card-off':
      return "The reminder is saved, but its card or the card's reminders are switched off, so it will not fire until they are on again.";
    default:
      return 'The reminder is saved, but no device receives reminders yet: turn on notifications on your phone in Settings › Notifications (on an iPhone, add Klebb to the Home Screen first).';
  }
}

type Item = Record<string, unknown> & { id?: unknown; trigger?: unknown };

function itemsOf(meta: Record<string, unknown>): { block: Record<string, unknown>; items: Item[] } {
  const block = (meta.notifications ?? {}) as Record<string, unknown>;
  const items = Array.isArray(block.items) ? (block.items as Item[]) : [];
  return { block, items };
}

const Trigger = Type.Object(
  {
    type: Type.Union([Type.Literal('daily'), Type.Literal('weekly')]),
    time: Type.String({ description: "24-hour HH:MM in the user's time zone" }),
    days: Type.Optional(
      Type.Array(Type.String({ description: 'mon, tue, wed, thu, fri, sat or sun' }), {
        description: 'weekly only',
      }),
    ),
  },
  { additionalProperties: true },
);

export const setNotification = defineTool({
  name: 'set_notification',
  description:
    'Add or update a daily/weekly reminder (same card_id + notification_id updates). title<=30, body<=80, label<=80; no values or past entries.',
  parameters: Type.Object({
    card_id: Type.String(),
    notification_id: Type.Optional(Type.String({ description: 'default: a slug of the label' })),
    label: Type.String(),
    title: Type.String(),
    body: Type.String(),
    trigger: Trigger,
    privacy: Type.Optional(Privacy),
  }),
  cardIdOf: (a) => a.card_id,
  run: (a, ctx) => {
    const card = requireCard(ctx.cards, a.card_id);
    const { block, items } = itemsOf(card.raw.meta ?? {});
    const id = a.notification_id ?? idForLabel(a.label, items);
    const at = items.findIndex((it) => it.id === id);
    const previous = at >= 0 ? items[at] : undefined;
    const next: Item = {
      ...(previous ?? {}),
      id,
      label: a.label,
      title: a.title,
      body: a.body,
      trigger: a.trigger,
    };
    if (a.privacy !== undefined) next.privacy = a.privacy;
    // a changed trigger must not inherit the old slot's "already fired" mark
    if (previous && !sameJson(previous.trigger, a.trigger)) delete next.lastFired;
    const nextItems = at >= 0 ? items.map((it, i) => (i === at ? next : it)) : [...items, next];
    patchCard(ctx.cards, a.card_id, { meta: { notifications: { ...block, items: nextItems } } });
    ctx.touch({ id: a.card_id, flow: 'edit' });
    const delivery = ctx.reminderDelivery?.(`${a.card_id}#${id}`);
    const advice = delivery && !delivery.will_arrive ? { tell_user: deliveryAdvice(delivery.reason) } : {};
    return {
      ok: true,
      card_id: a.card_id,
      notification_id: id,
      created: at < 0,
      ...(delivery ? { delivery } : {}),
      ...advice,
    };
  },
});

/**
 * The card patch that removes reminder `notificationId` from card `cardId`, and how many stay.
 * @throws 404 for an unknown card, 404 NOTIFICATION_NOT_FOUND naming `notification_id` when the
 *   card has no such reminder.
 */
function removal(ctx: ToolContext, cardId: string, notificationId: string) {
  const { block, items } = itemsOf(requireCard(ctx.cards, cardId).raw.meta ?? {});
  if (!items.some((it) => it.id === notificationId)) {
    const known = items.map((it) => String(it.id)).join(', ');
    throw new KlebbError(
      404,
      'NOTIFICATION_NOT_FOUND',
      `card "${cardId}" has no reminder "${notificationId}"${known ? ` (it has: ${known})` : ''}`,
      [{ path: 'notification_id', message: 'names no reminder of this card' }],
    );
  }
  const rest = items.filter((it) => it.id !== notificationId);
  return { patch: { meta: { notifications: { ...block, items: rest } } }, remaining: rest.length };
}

export const removeNotification = defineTool({
  name: 'remove_notification',
  description: 'Remove a reminder, after the person approves.',
  parameters: Type.Object({
    card_id: Type.String(),
    notification_id: Type.String(),
    confirmed: Type.Optional(
      Type.Boolean({ description: 'no longer needed: the person approves in the chat panel' }),
    ),
  }),
  cardIdOf: (a) => a.card_id,
  check: (a, ctx) => {
    checkPatch(ctx.cards, a.card_id, removal(ctx, a.card_id, a.notification_id).patch);
  },
  approval: (a, ctx) => removeReminderApproval(ctx, a.card_id, a.notification_id),
  run: (a, ctx) => {
    const { patch, remaining } = removal(ctx, a.card_id, a.notification_id);
    patchCard(ctx.cards, a.card_id, patch);
    return { ok: true, card_id: a.card_id, notification_id: a.notification_id, remaining };
  },
});

/** The reminder tools. */
export const NOTIFICATION_TOOLS = [setNotification, removeNotification];
