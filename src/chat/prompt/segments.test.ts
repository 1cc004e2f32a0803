import { describe, expect, it } from 'vitest';
import { KNOWN_CATEGORIES } from '../../cards/categories.js';
import type { ReportInfo } from '../../reports/report-catalogue.js';
import type { TextPart } from '../gateway/types.js';
import { DOC_ALLOWLIST, type DocEntry } from '../tools/doc-catalogue.js';
import { ALL_TOOLS } from '../tools/registry.js';
import { DEFAULT_BASE_PROMPT } from './base-prompt.js';
import { MAX_FOCUS_META_BYTES } from './focus-block.js';
import { MAX_PROMPT_REPORTS } from './instance-blocks.js';
import { buildPromptSegments, flatSystemText, type PromptInputs, systemMessage } from './segments.js';
import { VOICE_ENVELOPE } from './voice.js';

const docs: DocEntry[] = [
  { path: 'README.md', summary: 'What it is', kind: 'doc' },
  { path: 'public/js/components/eh-list-card.js', summary: 'List card renderer', kind: 'source' },
  { path: 'docs/CARDS.md', summary: 'Renderer reference', kind: 'doc' },
];

function report(name: string, over: Partial<ReportInfo> = {}): ReportInfo {
  return {
    name,
    title: `Report ${name}`,
    documentDate: null,
    ingestedAt: null,
    sourceFormat: null,
    withheld: false,
    status: null,
    ...over,
  };
}

/** Fresh inputs every call, so no test can lean on shared object identity. */
function inputs(over: Partial<PromptInputs> = {}): PromptInputs {
  return {
    basePrompt: DEFAULT_BASE_PROMPT('Ava', 'Home'),
    cards: [
      {
        id: 'weight',
        emoji: '⚖️',
        label: 'Weight',
        description: 'Morning weigh-in.\nSecond line is not shown.',
      },
      { id: 'bp', label: 'Blood pressure' },
      { id: 'mood', emoji: '🙂', label: 'Mood', description: 'x'.repeat(300) },
    ],
    reports: [
      report('lipids-2026-03', { title: 'Lipid panel', documentDate: '2026-03-02' }),
      report('scan', { title: 'Blood count', ingestedAt: '2026-02-10T08:00:00.000Z', withheld: true }),
      report('old'),
    ],
    docs: docs.map((d) => ({ ...d })),
    today: '2026-03-08',
    timeZone: 'America/Los_Angeles',
    ...over,
  };
}

describe('buildPromptSegments: static segment', () => {
  it('is byte-identical across calls with identical inputs', () => {
    const a = buildPromptSegments(inputs());
    const b = buildPromptSegments(inputs());
    expect(b).toEqual(a);
    expect(Buffer.from(b.static).equals(Buffer.from(a.static))).toBe(true);
  });

  it('does not depend on the cards, reports, date or card in focus', () => {
    const base = buildPromptSegments(inputs()).static;
    const other = buildPromptSegments(
      inputs({
        cards: [{ id: 'sleep', label: 'Sleep' }],
        reports: [],
        today: '2027-01-01',
        timeZone: 'Europe/Berlin',
        focusCard: { id: 'sleep', label: 'Sleep', meta: { id: 'sleep' } },
      }),
    ).static;
    expect(other).toBe(base);
    expect(base).not.toMatch(/\b20\d\d\b/);
  });

  it('holds the base prompt, then docs, categories, combination cards, row paths and the extra blocks, in that order', () => {
    const s = buildPromptSegments(
      inputs({ extraStaticBlocks: ['## HAE catalogue\n- step_count\n', '## Second extra'] }),
    ).static;
    expect(s.startsWith(DEFAULT_BASE_PROMPT('Ava', 'Home'))).toBe(true);
    const at = [
      '## Available docs',
      '## Manifest categories',
      '## Combination cards',
      '## Row paths',
      '## HAE catalogue',
      '## Second extra',
    ].map((h) => s.indexOf(`\n\n${h}`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(s.endsWith('## Second extra')).toBe(true);
    expect(s).not.toMatch(/\n{3}/);
  });

  it('groups docs: documentation first, then renderer source, each in the given order', () => {
    const s = buildPromptSegments(inputs()).static;
    const block = s.slice(s.indexOf('## Available docs'), s.indexOf('## Manifest categories'));
    expect(block.trim().split('\n')).toEqual([
      '## Available docs',
      'Read these with read_doc, passing the exact path.',
      'Documentation (read these first):',
      '- README.md: What it is',
      '- docs/CARDS.md: Renderer reference',
      'Renderer source:',
      '- public/js/components/eh-list-card.js: List card renderer',
    ]);
    const none = buildPromptSegments(inputs({ docs: [] })).static;
    expect(none).toContain('## Available docs\nNo documents are available');
  });

  it('names every known category, and the handbook section with their hints', () => {
    const s = buildPromptSegments(inputs()).static;
    const line = s.split('\n').find((l) => l.startsWith('Every new card gets a `meta.category`')) ?? '';
    expect(line).toContain(KNOWN_CATEGORIES.join(', '));
    expect(line).toContain('docs/CHAT-HANDBOOK.md#manifest-categories');
  });

  it('keeps the Health Auto Export, combination-card and row-path catalogues as short pointers to their docs', () => {
    const s = buildPromptSegments(inputs()).static;
    for (const [heading, doc] of [
      ['## Health Auto Export metrics', 'docs/HEALTH-AUTO-EXPORT.md#the-metrics'],
      ['## Combination cards', 'docs/CHAT-HANDBOOK.md#combination-cards'],
      ['## Row paths', 'docs/CHAT-HANDBOOK.md#row-paths'],
    ]) {
      const block = s.slice(s.indexOf(heading)).split('\n\n')[0];
      expect(block, heading).toContain(doc);
      expect(Buffer.byteLength(block), heading).toBeLessThan(500);
    }
  });

  it('with the default prompt, names every tool and every allowlisted doc summary it is given', () => {
    const s = buildPromptSegments(inputs({ docs: DOC_ALLOWLIST })).static;
    for (const t of ALL_TOOLS) expect(s).toContain(t.name);
    for (const d of DOC_ALLOWLIST) expect(s).toContain(`- ${d.path}: ${d.summary}`);
  });
});

describe('buildPromptSegments: instance segment', () => {
  it('lists cards in the given order, one compact `- id: label` line each', () => {
    const { instance } = buildPromptSegments(inputs());
    const lines = instance.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '## Currently available cards',
      '`id: label` per card; descriptions: list_manifests; fields: read_manifest_meta.',
      '- weight: Weight',
      '- bp: Blood pressure',
      '- mood: Mood',
    ]);
    const reversed = buildPromptSegments(inputs({ cards: [...inputs().cards].reverse() })).instance;
    expect(reversed).not.toBe(instance);
    expect(reversed.split('\n')[2]).toMatch(/^- mood: /);
  });

  it('lists reports with a date and marks withheld ones', () => {
    const { instance } = buildPromptSegments(inputs());
    const block = instance.slice(instance.indexOf('## Available reports'));
    expect(block.split('\n')).toEqual([
      '## Available reports',
      'Read one with read_report, passing its name.',
      '- lipids-2026-03: Lipid panel (2026-03-02)',
      '- scan: Blood count (2026-02-10, content withheld pending OCR verification)',
      '- old: Report old (undated)',
    ]);
  });

  it(`caps reports at ${MAX_PROMPT_REPORTS} and counts the rest`, () => {
    const many = Array.from({ length: 57 }, (_, i) => report(`r${String(i).padStart(2, '0')}`));
    const { instance } = buildPromptSegments(inputs({ reports: many }));
    const lines = instance.split('\n').filter((l) => l.startsWith('- r'));
    expect(lines).toHaveLength(MAX_PROMPT_REPORTS);
    expect(lines.at(-1)).toMatch(/^- r49:/);
    expect(instance.endsWith('\n- 7 omitted')).toBe(true);
    const exact = buildPromptSegments(inputs({ reports: many.slice(0, 50) })).instance;
    expect(exact).not.toContain('omitted');
  });

  it('says so when there are no cards or reports', () => {
    const { instance } = buildPromptSegments(inputs({ cards: [], reports: [] }));
    expect(instance).toBe(
      '## Currently available cards\nThere are no cards yet.\n\n## Available reports\nThere are no reports yet.',
    );
  });

  it('does not depend on the date or the card in focus', () => {
    const a = buildPromptSegments(inputs()).instance;
    const b = buildPromptSegments(
      inputs({ today: '2026-12-31', focusCard: { id: 'bp', label: 'BP', meta: {} } }),
    ).instance;
    expect(b).toBe(a);
  });
});

describe('buildPromptSegments: volatile segment', () => {
  it('is the date block, and no card in focus unless one is given', () => {
    const { volatile } = buildPromptSegments(inputs());
    expect(
      volatile.startsWith("## Today's date\nToday is Sunday 2026-03-08 (time zone America/Los_Angeles)."),
    ).toBe(true);
    expect(volatile).not.toContain('## Card in focus');
  });

  it('adds the card in focus with its id, label and compact meta', () => {
    const meta = { id: 'weight', label: 'Weight', view: { enabled: true, component: 'generic-card' } };
    const { volatile } = buildPromptSegments(
      inputs({
        focusCard: {
          id: 'weight',
          label: 'Weight',
          emoji: '⚖️',
          meta,
          description: 'Morning weigh-in.\nmore',
        },
      }),
    );
    const block = volatile.slice(volatile.indexOf('\n\n## Card in focus') + 2);
    expect(block.split('\n')).toEqual([
      '## Card in focus',
      'The user has this card open: weight (⚖️ Weight). "This card" and "it" most likely mean it.',
      'Description: Morning weigh-in.',
      `Meta: ${JSON.stringify(meta)}`,
    ]);
  });

  it(`keeps the meta JSON within ${MAX_FOCUS_META_BYTES} bytes by leaving out the largest keys, naming them`, () => {
    const meta = {
      id: 'big',
      label: 'Big',
      view: { enabled: true, component: 'generic-card', display: { template: '{v}' } },
      notes: 'ü'.repeat(3000),
      writeable: {
        fromWebapp: true,
        inputs: Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, type: 'number' })),
      },
    };
    const { volatile } = buildPromptSegments(inputs({ focusCard: { id: 'big', label: 'Big', meta } }));
    const metaLine = volatile.split('\n').find((l) => l.startsWith('Meta: '));
    const json = metaLine?.slice('Meta: '.length) ?? '';
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(MAX_FOCUS_META_BYTES);
    expect(JSON.parse(json)).toEqual({ id: 'big', label: 'Big', view: meta.view, writeable: meta.writeable });
    expect(volatile).toContain('Left out for size: notes. Call read_manifest_meta for them.');
  });
});

describe('systemMessage', () => {
  const segs = buildPromptSegments(inputs());

  it('cache on: static and instance carry breakpoints, volatile none', () => {
    const msg = systemMessage(segs, { cache: true });
    expect(msg.role).toBe('system');
    expect(msg.content).toEqual([
      { type: 'text', text: segs.static, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: segs.instance, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: segs.volatile },
    ]);
    expect('cache_control' in (msg.content as TextPart[])[2]).toBe(false);
  });

  it('voice mode puts the envelope in front of the static text, inside the first cached part', () => {
    const msg = systemMessage(segs, { cache: true, voiceEnvelope: VOICE_ENVELOPE });
    const parts = msg.content as TextPart[];
    expect(parts[0].text).toBe(`${VOICE_ENVELOPE}\n\n${segs.static}`);
    expect(parts[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(parts[1].text).toBe(segs.instance);
    expect(parts[2].text).toBe(segs.volatile);
  });

  it('cache off: one flat string equal to the parts joined, in the same order', () => {
    for (const voiceEnvelope of [undefined, VOICE_ENVELOPE]) {
      const parts = systemMessage(segs, { cache: true, voiceEnvelope }).content as TextPart[];
      const flat = systemMessage(segs, { cache: false, voiceEnvelope }).content;
      expect(typeof flat).toBe('string');
      expect(flat).toBe(flatSystemText(parts));
      const expected = [voiceEnvelope, segs.static, segs.instance, segs.volatile]
        .filter(Boolean)
        .join('\n\n');
      expect(flat).toBe(expected);
    }
  });

  it('same segments, same message bytes', () => {
    const a = JSON.stringify(systemMessage(segs, { cache: true }));
    const b = JSON.stringify(systemMessage(buildPromptSegments(inputs()), { cache: true }));
    expect(b).toBe(a);
  });
});
