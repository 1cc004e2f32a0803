/**
 * The catalogue blocks of the static prompt segment (Available docs, Manifest categories, combination-card contract, row path grammar).
 * They change only with a deploy, so they sit before the first cache breakpoint (docs/CHAT-AGENT.md
 * "Prompt caching"). Every block is a pure function of its arguments, built from arrays in their
 * given order: identical inputs give identical bytes.
 */

import { KNOWN_CATEGORIES, type KnownCategory } from '../../cards/categories.js';
import type { DocEntry } from '../tools/doc-catalogue.js';

/**
 * Input: the allowlisted docs that exist (`availableDocs()` in src/chat/tools/doc-catalogue.ts).
 * Output: `## Available docs`, grouped "Documentation" (kind doc, read first) then "Renderer
 * source" (kind source), one `- path: summary` line each, in the given order.
 * Source: docs/CHAT-AGENT.md "read_doc allowlist" (one-line summaries, two groups).
 */
export function docsBlock(docs: readonly DocEntry[]): string {
  const lines = ['## Available docs'];
  if (docs.length === 0) {
    lines.push('No documents are available to read_doc on this instance.');
    return lines.join('\n');
  }
  lines.push('Read these with read_doc, passing the exact path.');
  const groups: [DocEntry['kind'], string][] = [
    ['doc', 'Documentation (read these first):'],
    ['source', 'Renderer source:'],
  ];
  for (const [kind, heading] of groups) {
    const entries = docs.filter((d) => d.kind === kind);
    if (entries.length === 0) continue;
    lines.push(heading);
    for (const d of entries) lines.push(`- ${d.path}: ${d.summary}`);
  }
  return lines.join('\n');
}

/** What belongs in each category: our own rules of thumb for docs/MANIFEST-SCHEMA.md's enum. */
export const CATEGORY_HINTS: Record<KnownCategory, string> = {
  sleep: 'sleep duration, bed and wake times, sleep quality or stages',
  recovery: 'HRV, resting heart rate, readiness scores, soreness',
  activity: 'steps, workouts, exercise minutes, distance, training load',
  vitals: 'blood pressure, heart rate, blood oxygen, temperature, glucose, lab values',
  body: 'weight, body fat, waist and other measurements',
  mindfulness: 'mood, stress, energy, meditation, journaling',
  lifestyle: 'water, caffeine, alcohol, food, screen time, habits, appointments',
  supplements: 'vitamins, minerals and other non-prescription stacks',
  medication: 'prescribed drugs, peptides, injections, anything dosed on a protocol',
};

/**
 * Output: `## Manifest categories`: every KNOWN_CATEGORIES value (src/cards/categories.ts, in
 * its order) with what belongs there, and how to choose. Source: docs/MANIFEST-SCHEMA.md `category`
 * (the enum; combination suggestions at three or more enabled cards sharing one).
 */
export function categoriesBlock(): string {
  return [
    '## Manifest categories',
    'Give every new card a `meta.category` from this list. Combination-card suggestions appear once three or more enabled cards share a category.',
    ...KNOWN_CATEGORIES.map((c) => `- ${c}: ${CATEGORY_HINTS[c]}`),
    'Rules of thumb: categorise by what is recorded, not by the goal behind it (an injection log is medication even when the aim is better sleep); a card mixing several kinds takes the category of its headline field; when unsure, pick the closest and tell the user which one you chose.',
  ].join('\n');
}

/**
 * Output: `## Combination cards`: the contract in brief: component, empty data, layouts, the
 * `combines[]` entry fields and roles, ring goals, and offering to hide the absorbed cards.
 * Source: docs/MANIFEST-SCHEMA.md "Combination cards"; the same rules validate_manifest checks
 * (src/cards/renderer-shape.ts).
 */
export function combinationCardBlock(): string {
  return [
    '## Combination cards',
    'A combination card shows fields of several other cards together. It is read-only and owns no entries.',
    '- `meta.view.component: "combination-card"`, and the card\'s own `data` stays `[]`.',
    '- `meta.view.layout`: `"stack"` (rows; the default) or `"rings"` (progress rings).',
    "- `meta.view.combines`: one entry per source, in display order. `sourceId` (required): an existing card id. `role` (required): `primary`, `secondary`, `annotation` or `ring-segment`. Optional: `label`, `accessor` (dotted path into the source's latest row; default its first non-date value), `unit`, `emojiMap`, `colour`.",
    '- A `ring-segment` also needs `goalDaily`, a positive number; the ring fills to value / goal, capped at full.',
    "- Editing from a combination card opens the source card's form, so entries keep going to the source cards.",
    '- After creating one, offer to hide the source cards it absorbs with hide_card.',
  ].join('\n');
}

/**
 * Output: `## Row paths`: the grammar the row tools accept, with examples and the error codes.
 * Source: docs/API.md "Row path grammar"; the parser is src/store/row-path.ts.
 */
export function rowPathBlock(): string {
  return [
    '## Row paths',
    "The row tools (read_manifest_rows, append_row, update_row, remove_row, reorder_rows) point into a card's data with a path:",
    '- empty: the whole data block',
    '- `key`: a property of an object; chain keys with dots, as in `current.morning`',
    '- `[field=value]`: the one array element whose `field` equals the value exactly. Strings go in double or single quotes, numbers and `true`/`false` bare; dates are strings, so quote them',
    '- `[index=N]`: an element by position from 0; negative counts from the end, so `[index=-1]` is the last',
    '- a path may start with a filter when the data block is itself an array: `[date="YYYY-MM-DD"]`',
    '- steps combine: `items[name="Vitamin D"].doses[index=-1]`',
    'Filters test equality only: no ranges, no wildcards. Errors: BAD_PATH (syntax), NO_MATCH (nothing there), AMBIGUOUS (several elements match: add a field that is unique, or use an index), WRONG_TYPE (the path runs into the wrong kind of value).',
  ].join('\n');
}
