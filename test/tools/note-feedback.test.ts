/**
 * note_feedback through dispatchToolCall: one anonymised line
 * per call in `<home>/data/_meta/feedback.jsonl` with ts/kind/intent (intent <= 280, context <= 500,
 * <= 12 tool names).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
let log: string;
beforeEach(async () => {
  t = await toolEnv();
  log = path.join(t.s.home, 'data', '_meta', 'feedback.jsonl');
});
afterEach(async () => {
  await t.close();
});

const lines = () =>
  fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('note_feedback', () => {
  it('appends one line with ts, kind and intent', async () => {
    const before = Date.now();
    const r = await t.call('note_feedback', { kind: 'feature', intent: 'merge two cards into one' });
    expect(r.ok).toBe(true);
    expect(r.json).toEqual({ ok: true });
    const [e] = lines();
    expect(Object.keys(e).sort()).toEqual(['intent', 'kind', 'ts']);
    expect(e.kind).toBe('feature');
    expect(e.intent).toBe('merge two cards into one');
    expect(new Date(e.ts).toISOString()).toBe(e.ts);
    expect(Date.parse(e.ts)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('keeps context and toolsConsidered, one line per call, in order', async () => {
    await t.call('note_feedback', {
      kind: 'bug',
      intent: 'reorder failed',
      context: 'reorder_rows said ORDER_MISMATCH though every key was listed',
      toolsConsidered: ['reorder_rows', 'write_manifest_data'],
    });
    await t.call('note_feedback', { kind: 'feature', intent: 'second' });
    const all = lines();
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({
      kind: 'bug',
      intent: 'reorder failed',
      context: 'reorder_rows said ORDER_MISMATCH though every key was listed',
      toolsConsidered: ['reorder_rows', 'write_manifest_data'],
    });
    expect(all[1].intent).toBe('second');
  });

  it('an intent of exactly 280 characters is logged whole', async () => {
    const intent = 'i'.repeat(280);
    expect((await t.call('note_feedback', { kind: 'feature', intent })).ok).toBe(true);
    expect(lines()[0].intent).toBe(intent);
  });

  it('a longer intent, context and tool list are clipped to 280 / 500 / 12, not lost', async () => {
    const r = await t.call('note_feedback', {
      kind: 'feature',
      intent: 'i'.repeat(400),
      context: 'c'.repeat(800),
      toolsConsidered: Array.from({ length: 15 }, (_, i) => `tool_${i}`),
    });
    expect(r.ok, r.content).toBe(true);
    const [e] = lines();
    expect(e.intent.length).toBeLessThanOrEqual(280);
    expect(e.intent.startsWith('iii')).toBe(true);
    expect(e.context.length).toBeLessThanOrEqual(500);
    expect(e.toolsConsidered).toHaveLength(12);
  });

  it('refuses without intent or with a bad kind, naming the field; nothing logged', async () => {
    const noIntent = await t.call('note_feedback', { kind: 'bug' });
    expect(noIntent.ok).toBe(false);
    expect(noIntent.json.details.map((d: { path: string }) => d.path)).toContain('intent');
    const empty = await t.call('note_feedback', { kind: 'bug', intent: '   ' });
    expect(empty.ok).toBe(false);
    const badKind = await t.call('note_feedback', { kind: 'praise', intent: 'x' });
    expect(badKind.ok).toBe(false);
    expect(JSON.stringify(badKind.json.details)).toContain('kind');
    expect(fs.existsSync(log) ? lines() : []).toEqual([]);
  });
});
