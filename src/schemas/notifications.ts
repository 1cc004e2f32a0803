/**
 * Reminders (docs/API.md "Notifications"): the pieces `POST /api/notifications/state` and
 * `/global-state` share with the set_notification and remove_notification tools. The reminder
 * rules themselves (lengths, days, times) are checked by src/cards/validate-notifications.ts.
 */
import { Type } from '@sinclair/typebox';
import { TRIGGER_TIME_PATTERN } from '../cards/validate-notifications.js';

/** Whether a reminder's text may show on a locked screen: `private` hides it. */
export const Privacy = Type.Union([Type.Literal('private'), Type.Literal('public')], {
  description: 'private (default): the lock screen shows no card text; public: it shows the title and body',
});

/** A 24-hour `HH:MM` time of day in the person's time zone. */
export const TimeOfDay = Type.String({
  pattern: TRIGGER_TIME_PATTERN.source,
  errorMessage: 'must be a 24-hour time written HH:MM (00:00 to 23:59)',
  description: "24-hour HH:MM in the user's time zone",
});
