/**
 * The card the chat tests log into: Water, one number field `ml`, writable from the web app,
 * no rows. A fresh copy each call, so a test may change it.
 */
export function waterCard() {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'water',
      label: 'Water',
      writeable: { fromWebapp: true, inputs: [{ key: 'ml', type: 'number' }] },
    },
    data: [] as Record<string, unknown>[],
  };
}
