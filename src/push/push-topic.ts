/**
 * The Web Push `Topic` header of one message. A push service keeps one pending message per
 * topic and replaces it with a newer one of the same topic, so the topic names exactly what the
 * message is: the reminders it carries and the slot they fire for. Two reminders of one card
 * firing minutes apart (or the same reminder on two days) never replace each other on a phone
 * that was offline, while a re-send of the same message (a smaller copy after a 413, a retry)
 * replaces its own pending copy. A test push has no slot and gets its own topic, so it never
 * replaces a real reminder waiting to be delivered.
 */
import { createHash } from 'node:crypto';

/**
 * `klebb-` and 24 base64url characters of a hash of `slot` (null: a test) and the reminder ids
 * (`<card id>#<item id>`, order ignored): 30 characters of the URL-safe base64 alphabet, within
 * the 32 a push service accepts.
 */
export function pushTopic(reminderIds: readonly string[], slot: string | null): string {
  const name = [slot ?? 'test', ...[...reminderIds].sort()].join('\n');
  return `klebb-${createHash('sha256').update(name).digest('base64url').slice(0, 24)}`;
}
