/**
 * hygiene_scan through dispatchToolCall: stale is opt-in
 * (meta.cadence.expectDays + fromWebapp + >= 3 dated rows + age over the window; warn past twice
 * the window), growth over 730 rows, orphaned-input, disabled cards skipped, never mutates.
 * The clock is pinned so ages are exact.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const previousTz = process.env.TZ;
const TODAY = '2026-06-15';
const day = (n: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
/** `n` rows, the newest `age` days old. */
const rows = (n: number, age: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ date: day(-age - (n - 1 - i)), kg: 70 + i, ...extra }));
const cadence = (expectDays: number, more: Record<string, unknown> = {}) => ({
  cadence: { expectDays },
  ...more,
});

let t: ToolEnv;
beforeAll(async () => {
  process.env.TZ = 'UTC';
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  t = await toolEnv();
  const cards = [
    manifest('stale-info', rows(3, 10), cadence(7)), // 10 > 7, not > 14
    manifest('stale-warn', rows(5, 20), cadence(7)), // 20 > 14
    manifest('at-window', rows(3, 7), cadence(7)), // 7 is not over 7
    manifest('just-over-double', rows(3, 15), cadence(7)), // warn
    manifest('exactly-double', rows(3, 14), cadence(7)), // info
    manifest('two-rows', rows(2, 60), cadence(7)),
    manifest('no-cadence', rows(5, 60)),
    manifest('read-only', rows(5, 60), cadence(7, { writeable: { fromWebapp: false } })),
    manifest('undated', [{ kg: 1 }, { kg: 2 }, { kg: 3 }], cadence(7)),
    manifest('object-card', { items: [{ name: 'a' }] }, cadence(1)),
    manifest(
      'disabled',
      rows(800, 60, { unused: undefined }),
      cadence(7, {
        enabled: false,
        writeable: { fromWebapp: true, inputs: [{ key: 'never', type: 'text' }] },
      }),
    ),
    manifest('big', rows(731, 0)),
    manifest('at-limit', rows(730, 0)),
    manifest(
      'inputs',
      [
        { date: day(-1), kg: 70 },
        { date: day(0), kg: 71, note: 'ok' },
      ],
      {
        writeable: {
          fromWebapp: true,
          inputs: [
            { key: 'kg', type: 'number' },
            { key: 'note', type: 'text' },
            { key: 'mood', type: 'rating' },
            { key: 'sleep', type: 'number' },
          ],
        },
      },
    ),
    manifest('legacy-inputs', [{ date: day(0), systolic: 120 }], {
      view: {
        enabled: true,
        component: 'list-card',
        inputs: [
          { name: 'systolic', type: 'number' },
          { name: 'pulse', type: 'number' },
        ],
      },
    }),
    manifest('no-rows-yet', [], { writeable: { fromWebapp: true, inputs: [{ key: 'kg', type: 'number' }] } }),
  ];
  for (const m of cards) {
    const r = await t.call('create_manifest', { manifest: m });
    expect(r.json, JSON.stringify(r.json)).toMatchObject({ ok: true });
  }
});
afterAll(async () => {
  await t.close();
  vi.useRealTimers();
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

async function scan() {
  const r = await t.call('hygiene_scan', {});
  expect(r.ok).toBe(true);
  expect(Object.keys(r.json)).toEqual(['findings']);
  return r.json.findings as { cardId: string; kind: string; severity: string; detail: string }[];
}
const of = (findings: Awaited<ReturnType<typeof scan>>, kind: string) =>
  Object.fromEntries(findings.filter((f) => f.kind === kind).map((f) => [f.cardId, f]));

describe('hygiene_scan', () => {
  it('every finding has cardId, kind, severity and detail (stale ones also ageDays and expectDays)', async () => {
    for (const f of await scan()) {
      const extra = f.kind === 'stale' ? ['ageDays', 'expectDays'] : [];
      expect(Object.keys(f).sort()).toEqual([...extra, 'cardId', 'detail', 'kind', 'severity'].sort());
      expect(['stale', 'growth', 'orphaned-input']).toContain(f.kind);
      expect(['info', 'warn']).toContain(f.severity);
      expect(f.detail.length).toBeGreaterThan(0);
    }
  });

  it('stale only for opted-in, writeable cards with >= 3 dated rows past the window; warn past twice it', async () => {
    const stale = of(await scan(), 'stale');
    expect(Object.keys(stale).sort()).toEqual([
      'exactly-double',
      'just-over-double',
      'stale-info',
      'stale-warn',
    ]);
    expect(stale['stale-info'].severity).toBe('info');
    expect(stale['exactly-double'].severity).toBe('info');
    expect(stale['just-over-double'].severity).toBe('warn');
    expect(stale['stale-warn'].severity).toBe('warn');
    expect(stale['stale-info'].detail).toContain(day(-10));
  });

  it('rows without real dates never count toward the three', async () => {
    await t.call('create_manifest', {
      manifest: manifest(
        'one-dated',
        [{ date: day(-40), kg: 1 }, { kg: 2 }, { kg: 3 }, { kg: 4 }],
        cadence(7),
      ),
    });
    try {
      expect(of(await scan(), 'stale')).not.toHaveProperty('one-dated');
    } finally {
      await t.call('delete_manifest', { id: 'one-dated' });
    }
  });

  it('growth over 730 rows (info), not at 730', async () => {
    const growth = of(await scan(), 'growth');
    expect(Object.keys(growth)).toEqual(['big']);
    expect(growth.big.severity).toBe('info');
    expect(growth.big.detail).toContain('731');
  });

  it('orphaned-input names the input keys no row has', async () => {
    const orphans = of(await scan(), 'orphaned-input');
    expect(Object.keys(orphans).sort()).toEqual(['inputs', 'legacy-inputs']);
    expect(orphans.inputs.severity).toBe('info');
    expect(orphans.inputs.detail).toContain('mood');
    expect(orphans.inputs.detail).toContain('sleep');
    expect(orphans.inputs.detail).not.toMatch(/\bkg\b/);
    expect(orphans.inputs.detail).not.toMatch(/\bnote\b/);
    expect(orphans['legacy-inputs'].detail).toContain('pulse');
    expect(orphans['legacy-inputs'].detail).not.toContain('systolic');
  });

  it('disabled cards are skipped entirely', async () => {
    const findings = await scan();
    expect(findings.filter((f) => f.cardId === 'disabled')).toEqual([]);
    // and they come back once shown again
    await t.call('show_card', { id: 'disabled' });
    try {
      const back = (await scan())
        .filter((f) => f.cardId === 'disabled')
        .map((f) => f.kind)
        .sort();
      expect(back).toEqual(['growth', 'orphaned-input', 'stale']);
    } finally {
      await t.call('hide_card', { id: 'disabled' });
    }
  });

  it('never mutates: versions and files stay as they were', async () => {
    const before = t.s.inst.cards.store.allStates();
    const files = Object.fromEntries(
      t.s.inst.cards.registry.all().map((c) => [c.id, JSON.stringify(t.file(c.id))]),
    );
    await scan();
    await scan();
    const after = t.s.inst.cards.store.allStates();
    expect([...after.entries()]).toEqual([...before.entries()]);
    for (const c of t.s.inst.cards.registry.all()) expect(JSON.stringify(t.file(c.id))).toBe(files[c.id]);
  });

  it('a new entry clears the stale finding', async () => {
    await t.call('append_row', { id: 'stale-info', value: { date: TODAY, kg: 75 } });
    expect(of(await scan(), 'stale')).not.toHaveProperty('stale-info');
  });
});
