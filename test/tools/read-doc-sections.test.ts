/**
 * The catalogues the chat prompt no longer carries are one read_doc away (docs/CHAT-AGENT.md "The
 * system prompt and prompt caching"): `path#section` returns one `##` section; the handbook's
 * worked manifests and Lab results card validate; its categories carry every hint; the Health
 * Auto Export doc lists every metric the catalogue knows with its row shape; and every handbook
 * section the prompt points to exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_CATEGORIES } from '../../src/cards/categories.js';
import { dryRunValidate } from '../../src/cards/validate-manifest.js';
import { DEFAULT_BASE_PROMPT } from '../../src/chat/prompt/base-prompt.js';
import { buildPromptSegments } from '../../src/chat/prompt/segments.js';
import { CATEGORY_HINTS } from '../../src/chat/prompt/static-blocks.js';
import { availableDocs, headingSlug, readDoc } from '../../src/chat/tools/doc-catalogue.js';
import { CATALOGUE } from '../../src/ingest/hae/format/catalogue.js';
import { type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
beforeAll(async () => {
  t = await toolEnv();
});
afterAll(async () => {
  await t.close();
});

/** The ```json blocks of a text, parsed. */
function jsonBlocks(text: string): Record<string, unknown>[] {
  return [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]));
}

describe('read_doc with #section', () => {
  it('returns one ## section, heading included, and names it', async () => {
    const r = await t.call('read_doc', { path: 'docs/CHAT-HANDBOOK.md#row-paths' });
    expect(r.ok).toBe(true);
    expect(r.json.path).toBe('docs/CHAT-HANDBOOK.md');
    expect(r.json.section).toBe('row-paths');
    expect(r.json.content.startsWith('## Row paths\n')).toBe(true);
    expect(r.json.content).not.toContain('\n## ');
    expect(r.json.content).toContain('AMBIGUOUS');
  });

  it('an unknown section is a 404 that lists the sections; the path itself is still checked', async () => {
    const r = await t.call('read_doc', { path: 'docs/CHAT-HANDBOOK.md#nope' });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('NOT_FOUND');
    expect(r.json.error).toContain('#creating-cards');
    const bad = await t.call('read_doc', { path: 'package.json#scripts' });
    expect(bad.ok).toBe(false);
    expect(bad.json.code).toBe('BAD_REQUEST');
  });

  it('slugs headings as the anchors of the rendered docs do', () => {
    expect(headingSlug('The metrics')).toBe('the-metrics');
    expect(headingSlug('Debug log (`HEALTH_DEBUG`)')).toBe('debug-log-health_debug');
  });
});

describe('the handbook', () => {
  it("'Creating cards' holds worked manifests that pass validate_manifest", () => {
    const examples = jsonBlocks(readDoc('docs/CHAT-HANDBOOK.md#creating-cards').content);
    expect(examples.map((e) => (e.meta as { view: { component: string } }).view.component)).toEqual([
      'generic-card',
      'list-card',
    ]);
    for (const e of examples) expect(dryRunValidate(e)).toEqual({ ok: true });
  });

  it("'Lab results card' holds a valid lab-results manifest and the row to append", () => {
    const text = readDoc('docs/CHAT-HANDBOOK.md#lab-results-card').content;
    const [card] = jsonBlocks(text);
    expect((card.meta as { id: string }).id).toBe('lab-results');
    expect(dryRunValidate(card)).toEqual({ ok: true });
    expect(text).toContain('append_row');
    expect(text).toContain('"loinc"');
  });

  it("'Manifest categories' gives every category its hint", () => {
    const text = readDoc('docs/CHAT-HANDBOOK.md#manifest-categories').content;
    for (const c of KNOWN_CATEGORIES) expect(text).toContain(`- ${c}: ${CATEGORY_HINTS[c]}`);
  });

  it('every docs section the prompt points to exists', () => {
    const prompt = [
      DEFAULT_BASE_PROMPT('Ava', 'Klebb'),
      buildPromptSegments({
        basePrompt: '',
        cards: [],
        reports: [],
        docs: availableDocs(),
        today: '2026-01-01',
        timeZone: 'UTC',
      }).static,
    ].join('\n');
    const anchors = [...prompt.matchAll(/(docs\/[A-Z-]+\.md)#([a-z0-9_-]+)/g)];
    expect(anchors.length).toBeGreaterThanOrEqual(6);
    for (const [, file, anchor] of anchors) expect(readDoc(`${file}#${anchor}`).section).toBe(anchor);
    // short forms (`#combination-cards`) name sections of the handbook
    for (const [, anchor] of prompt.matchAll(/ #([a-z-]+)[.,]/g))
      expect(readDoc(`docs/CHAT-HANDBOOK.md#${anchor}`).section).toBe(anchor);
  });
});

describe('the Health Auto Export metrics', () => {
  it('are all listed with their category and row shape in the section the prompt names', async () => {
    const r = await t.call('read_doc', { path: 'docs/HEALTH-AUTO-EXPORT.md#the-metrics' });
    expect(r.ok).toBe(true);
    const rows = (r.json.content as string).split('\n').filter((l) => l.startsWith('| `'));
    for (const e of CATALOGUE) {
      const row = rows.find((l) => l.startsWith(`| \`${e.key}\``));
      expect(row, e.key).toBeDefined();
      expect(row).toContain(`| ${e.category} |`);
      expect(row).toContain(`\`${e.rowShape}\``);
    }
  });
});
