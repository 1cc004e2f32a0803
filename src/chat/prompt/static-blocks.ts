/**
 * The catalogue blocks of the static prompt segment (Available docs, Manifest categories,
 * combination-card contract, row path grammar, Health Auto Export metrics). Each is short: the
 * full catalogues are docs the agent reads on demand (docs/CHAT-HANDBOOK.md,
 * docs/HEALTH-AUTO-EXPORT.md). They change only with a deploy, so they sit before the first cache breakpoint (docs/CHAT-AGENT.md
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
 * Output: `## Manifest categories`: every KNOWN_CATEGORIES value (src/cards/categories.ts, in its
 * order) on one line, and where the hints of CATEGORY_HINTS and the rules of thumb are
 * (docs/CHAT-HANDBOOK.md "Manifest categories", read on demand). Source: docs/MANIFEST-SCHEMA.md
 * `category`.
 */
export function categoriesBlock(): string {
  return [
    '## Manifest categories',
    `Every new card gets a \`meta.category\`: ${KNOWN_CATEGORIES.join(', ')}. Categorise by what is recorded, not the goal behind it; what belongs where: read_doc docs/CHAT-HANDBOOK.md#manifest-categories.`,
  ].join('\n');
}

/**
 * Output: `## Combination cards`: the contract's core (component, empty data, `combines[]` with
 * `sourceId` and `role`) and where the rest is (docs/CHAT-HANDBOOK.md "Combination cards": layouts,
 * roles, ring goals, hiding the absorbed cards). The same rules validate_manifest checks
 * (src/cards/renderer-shape.ts).
 */
export function combinationCardBlock(): string {
  return [
    '## Combination cards',
    'A read-only card showing fields of several cards: `meta.view.component: "combination-card"`, `data: []`, `meta.view.combines: [{sourceId, role}, ...]`. Layouts, roles and ring goals: read_doc docs/CHAT-HANDBOOK.md#combination-cards.',
  ].join('\n');
}

/**
 * Output: `## Row paths`: the grammar the row tools accept, in brief, and where the full grammar
 * with its error codes is (docs/CHAT-HANDBOOK.md "Row paths"). Source: docs/API.md "Row path
 * grammar"; the parser is src/store/row-path.ts.
 */
export function rowPathBlock(): string {
  return [
    '## Row paths',
    'Row tools point into a card\'s data with a path: empty = the whole data block; `key.key` walks objects; `[field=value]` picks the one element whose field equals the value (quote strings and dates); `[index=N]` by position, `-1` the last; steps combine: `items[name="Vitamin D"].doses[index=-1]`. Equality only. Details and errors: read_doc docs/CHAT-HANDBOOK.md#row-paths.',
  ].join('\n');
}

/**
 * Output: `## Health Auto Export metrics`: how a card subscribes to a phone metric and where the
 * metric list is (docs/HEALTH-AUTO-EXPORT.md "The metrics": every key with its category, row shape
 * and unit, read on demand rather than sent with every request).
 */
export function haeMetricsBlock(): string {
  return [
    '## Health Auto Export metrics',
    'A card fed by the phone declares `meta.ingest: {"source": "hae", "metric": "<key>"}` and is usually read-only (`writeable.fromWebapp: false`). Metric keys, categories and row shapes: read_doc docs/HEALTH-AUTO-EXPORT.md#the-metrics.',
  ].join('\n');
}
