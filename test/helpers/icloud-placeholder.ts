/**
 * A weight card as iCloud Drive tests need it: the file's text, its rows, and the bytes of the
 * hidden placeholder (`.weight.json.icloud`) iCloud leaves when it moves the file to the cloud.
 */

/** The card file `weight.json` as Klebb writes it (two-space JSON, final newline), no rows. */
export const cardText = `${JSON.stringify(
  {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'weight',
      label: 'Weight',
      view: { enabled: true, component: 'list-card' },
      writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number', required: true }] },
    },
  },
  null,
  2,
)}\n`;

/** Twelve days of weight, 2026-04-01 to 2026-04-12. */
export const rows = Array.from({ length: 12 }, (_, i) => ({
  date: `2026-04-${String(i + 1).padStart(2, '0')}`,
  kg: 80 + i,
}));

/** What the placeholder holds: a small binary property list naming the file. */
export const placeholderBytes = Buffer.from(
  'bplist00\xd3\x01\x02\x03NSURLNameKey_\x10\x0bweight.json',
  'latin1',
);
