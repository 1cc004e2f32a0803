/**
 * A weight card with one daily reminder, off until the person switches it on: what tests of the
 * reminder settings (on/off, privacy, quiet hours) start from.
 */

/** Reminder id of the card's one reminder: `<id>#weigh-in`. */
export const WEIGH_IN = 'weigh-in';

/** The manifest (with one row) of card `id`, whose reminder `weigh-in` fires daily at 07:30. */
export function weighInCard(id: string, date = '2026-04-01'): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: 'Weight',
      notifications: {
        items: [
          {
            id: WEIGH_IN,
            label: 'Morning weigh-in',
            title: 'Weight',
            body: 'Step on the scales',
            privacy: 'private',
            default: 'off',
            trigger: { type: 'daily', time: '07:30' },
          },
        ],
      },
    },
    data: [{ date, kg: 80 }],
  };
}
