import { describe, expect, it } from 'vitest';
import { sanitizeAtLoad } from './sanitize-at-load.js';

function note(id: string, over: Record<string, unknown> = {}) {
  return { id, label: 'L', title: 'T', body: 'B', trigger: { type: 'daily', time: '08:00' }, ...over };
}

function manifest(
  meta: Record<string, unknown> = {},
  rest: Record<string, unknown> = {},
): Record<string, unknown> {
  return { $schema: 'klebb.datafile.v1', meta: { id: 'water', label: 'Water', ...meta }, ...rest };
}

describe('sanitizeAtLoad (lenient load)', () => {
  it('returns an equal deep copy of a clean manifest and never mutates the input', () => {
    const input = manifest(
      { view: { display: { template: '{v}' } }, future: { x: 1 } },
      { data: [{ v: 1 }] },
    );
    const snapshot = structuredClone(input);
    const { manifest: out, dropped, warnings } = sanitizeAtLoad(input);
    expect(dropped).toEqual([]);
    expect(warnings).toEqual([]);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(out.meta).not.toBe(input.meta);
    expect(out.data).not.toBe(input.data);
    expect(input).toEqual(snapshot);
  });

  it('drops only the bad notification items, by original index', () => {
    const input = manifest({
      notifications: {
        enabled: true,
        items: [
          note('a'),
          note('b', { title: 'x'.repeat(31) }),
          note('c'),
          note('d', { trigger: 'daily' }),
          note('e'),
        ],
      },
    });
    const snapshot = structuredClone(input);
    const { manifest: out, dropped } = sanitizeAtLoad(input);
    const items = (out.meta as { notifications: { items: { id: string }[] } }).notifications.items;
    expect(items.map((i) => i.id)).toEqual(['a', 'c', 'e']);
    expect(dropped.map((d) => d.path)).toEqual([
      'meta.notifications.items[1]',
      'meta.notifications.items[3]',
    ]);
    expect(dropped[0].message).toContain('meta.notifications.items[1].title must be at most 30 characters');
    expect(input).toEqual(snapshot);
  });

  it('merges several reasons for one item into one removal', () => {
    const { dropped } = sanitizeAtLoad(
      manifest({ notifications: { items: [note('a', { title: '', body: '' })] } }),
    );
    expect(dropped).toHaveLength(1);
    expect(dropped[0].path).toBe('meta.notifications.items[0]');
    expect(dropped[0].message).toContain('.title');
    expect(dropped[0].message).toContain('; ');
  });

  it('keeps the first 10 items and drops a later duplicate', () => {
    const items = Array.from({ length: 12 }, (_, i) => note(`n${i}`));
    items[1] = note('n0');
    const { manifest: out, dropped } = sanitizeAtLoad(manifest({ notifications: { items } }));
    const kept = (out.meta as { notifications: { items: { id: string }[] } }).notifications.items;
    expect(kept.map((i) => i.id)).toEqual(['n0', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9']);
    expect(dropped.map((d) => d.path)).toEqual([
      'meta.notifications.items[10]',
      'meta.notifications.items[11]',
      'meta.notifications.items[1]',
    ]);
  });

  it('drops a bad cadence and a bad ingest whole, keeping the card', () => {
    const { manifest: out, dropped } = sanitizeAtLoad(
      manifest({ cadence: { expectDays: 0, note: 'x' }, ingest: { source: 'hae', metric: 'stepz' } }),
      { isKnownMetric: (m) => m === 'step_count' },
    );
    expect(out.meta).toEqual({ id: 'water', label: 'Water' });
    expect(dropped.map((d) => d.path)).toEqual(['meta.ingest', 'meta.cadence']);
    expect(dropped[0].message.startsWith('invalid ingest: ')).toBe(true);
    expect(dropped[1].message.startsWith('invalid cadence: ')).toBe(true);
  });

  it('drops the smallest enclosing field elsewhere', () => {
    const { manifest: out, dropped } = sanitizeAtLoad(
      manifest({
        emoji: 5,
        order: 'first',
        enabled: 'no',
        category: 'Not A Slug',
        view: { enabled: true, component: 'generic-card', display: ['{v}'] },
        trends: 'line-chart',
        writeable: {
          fromWebapp: 'yes',
          maxReadingsPerDay: 0,
          inputs: [
            { key: 'a', type: 'number' },
            { key: 'b', type: 'wobble' },
          ],
        },
        schedule: { type: 'daily', time_of_day: 'noon' },
        unknown: { kept: true },
      }),
    );
    expect(out.meta).toEqual({
      id: 'water',
      label: 'Water',
      view: { enabled: true, component: 'generic-card' },
      writeable: { inputs: [{ key: 'a', type: 'number' }] },
      schedule: { type: 'daily' },
      unknown: { kept: true },
    });
    expect(dropped.map((d) => d.path).sort()).toEqual(
      [
        'meta.emoji',
        'meta.order',
        'meta.enabled',
        'meta.category',
        'meta.view.display',
        'meta.trends',
        'meta.writeable.fromWebapp',
        'meta.writeable.maxReadingsPerDay',
        'meta.writeable.inputs[1]',
        'meta.schedule.time_of_day',
      ].sort(),
    );
  });

  it('does not check the id format at load', () => {
    expect(sanitizeAtLoad(manifest({ id: 'My Old_Card' })).dropped).toEqual([]);
    expect(sanitizeAtLoad(manifest({ id: 'index' })).dropped).toEqual([]);
  });

  it('reports missing core fields but leaves the manifest as is', () => {
    const input = { $schema: 'other.v2', meta: { emoji: 1 } };
    const { manifest: out, dropped } = sanitizeAtLoad(input);
    expect(dropped.map((d) => d.path)).toEqual(['$schema', 'meta.id', 'meta.label', 'meta.emoji']);
    expect(out).toEqual({ $schema: 'other.v2', meta: {} });
    const noMeta = sanitizeAtLoad({ $schema: 'klebb.datafile.v1', meta: 'x' });
    expect(noMeta.dropped.map((d) => d.path)).toEqual(['meta']);
    expect(noMeta.manifest).toEqual({ $schema: 'klebb.datafile.v1', meta: 'x' });
  });

  it('accepts the legacy $schema', () => {
    expect(sanitizeAtLoad({ ...manifest(), $schema: 'eddzhealth.datafile.v1' }).dropped).toEqual([]);
  });

  it('never prunes data; a bad schedule.time_of_day there is a warning', () => {
    const data = { items: [{ name: 'x', schedule: { time_of_day: 'noon' } }] };
    const { manifest: out, dropped, warnings } = sanitizeAtLoad(manifest({}, { data }));
    expect(dropped).toEqual([]);
    expect(out.data).toEqual(data);
    expect(warnings.map((w) => w.path)).toEqual(['data.items[0].schedule.time_of_day']);
  });

  it('rescues a JSON-string data block with a warning; leaves other strings alone', () => {
    const rescued = sanitizeAtLoad(manifest({}, { data: '[{"date":"2026-04-20","v":1}]' }));
    expect(rescued.manifest.data).toEqual([{ date: '2026-04-20', v: 1 }]);
    expect(rescued.warnings.map((w) => w.path)).toEqual(['data']);
    const plain = sanitizeAtLoad(manifest({}, { data: 'hello' }));
    expect(plain.manifest.data).toBe('hello');
    expect(plain.warnings).toEqual([]);
  });
});
