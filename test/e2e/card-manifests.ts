/**
 * Hand-made card manifests the browser tests share: a card with one number field and a list
 * card with one text field, the two shapes most entry-form tests write into.
 */

/** Where a card stands and what it holds at the start. */
export interface CardStart {
  /** `meta.order`: where the card stands on Today. */
  order?: number;
  /** The card's rows at the start. */
  data?: Record<string, unknown>[];
}

/**
 * A generic card whose one number field `key` (labelled `inputLabel`) shows as `{key|–}`;
 * `maxReadingsPerDay` above 1 makes it take several entries a day.
 */
export function numberCard(
  id: string,
  label: string,
  input: { key: string; label: string },
  opts: CardStart & { maxReadingsPerDay?: number } = {},
) {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label,
      ...(opts.order !== undefined ? { order: opts.order } : {}),
      view: { enabled: true, component: 'generic-card', display: { template: `{${input.key}|–}` } },
      writeable: {
        fromWebapp: true,
        ...(opts.maxReadingsPerDay !== undefined ? { maxReadingsPerDay: opts.maxReadingsPerDay } : {}),
        inputs: [{ key: input.key, type: 'number', label: input.label }],
      },
    },
    data: opts.data ?? [],
  };
}

/** A list card of one text field `item` labelled Item (a shopping list). */
export function listCard(id: string, label: string, opts: CardStart = {}) {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label,
      ...(opts.order !== undefined ? { order: opts.order } : {}),
      view: { enabled: true, component: 'list-card', display: { template: '{item}' } },
      writeable: { fromWebapp: true, inputs: [{ key: 'item', type: 'text', label: 'Item' }] },
    },
    data: opts.data ?? [],
  };
}
