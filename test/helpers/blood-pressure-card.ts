/**
 * The Blood pressure card of the retry tests (`bp`): two readings a day at most, past dates
 * allowed, one reading stored (121 on 2026-04-20), so a reading stored twice pushes one out.
 */
export const BLOOD_PRESSURE_CARD = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'bp',
    label: 'Blood pressure',
    view: { enabled: true, component: 'generic-card' },
    writeable: {
      fromWebapp: true,
      pastAllowed: true,
      maxReadingsPerDay: 2,
      inputs: [
        { key: 'date', type: 'date' },
        { key: 'sys', type: 'number', min: 50, max: 260 },
      ],
    },
  },
  data: [{ date: '2026-04-20', sys: 121 }],
};
