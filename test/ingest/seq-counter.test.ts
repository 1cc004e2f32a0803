/**
 * SeqCounter (src/ingest/hae/webhook/streamed-block.ts): the per-block count of (instant as written,
 * source) that numbers `seq` across the chunks of a streamed block. Its table grows from 1024
 * slots; these runs cross several growths and compare every answer with a plain Map keyed the way
 * extractSamples keys it (`canonicalTimestamp|source`).
 */
import { expect, it } from 'vitest';
import { parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { SeqCounter } from '../../src/ingest/hae/webhook/streamed-block.js';

function stamp(minute: number, offset: string): string {
  const t = new Date(Date.UTC(2024, 0, 1) + minute * 60_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)} ${offset}`;
}

it('counts each (instant as written, source) like a map of canonical stamp and source, across table growth', () => {
  const counter = new SeqCounter();
  const expected = new Map<string, number>();
  const sources = ['User’s Apple\u00a0Watch', 'User’s iPhone', null, 'Oura'];
  const offsets = ['-0500', '-0400', '+0000'];
  const counts: number[] = [];
  const see = (m: number) => {
    const t = parseHaeTimestamp(stamp(m, offsets[m % 7 === 0 ? 1 : m % 11 === 0 ? 2 : 0]));
    if (!t) throw new Error('unparsed');
    for (let k = 0; k <= m % 3; k++) {
      const source = sources[(m + k) % sources.length];
      const key = `${t.canonical}|${source ?? ''}`;
      const want = expected.get(key) ?? 0;
      expected.set(key, want + 1);
      counts.push(want);
      expect(counter.next(t, source)).toBe(want);
    }
  };
  // new minutes all along (the table grows several times) with earlier ones seen again meanwhile
  for (let m = 0; m < 30_000; m++) {
    see(m);
    if (m >= 1000 && m % 3 === 0) see(m - 1000);
    if (m >= 5000 && m % 4 === 0) see(m - 5000);
  }
  expect(expected.size).toBeGreaterThan(50_000);
  expect(counts.filter((n) => n >= 2).length).toBeGreaterThan(1000);
});

it('the same wall clock with another offset, or floating, is another instant as written', () => {
  const counter = new SeqCounter();
  const a = parseHaeTimestamp('2024-03-10 01:30:00 -0500');
  const b = parseHaeTimestamp('2024-03-10 02:30:00 -0400'); // the same instant, written differently
  const c = parseHaeTimestamp('2024-03-10 06:30:00');
  const d = parseHaeTimestamp('2024-03-10T06:30:00Z'); // same epochMs as the floating c
  if (!a || !b || !c || !d) throw new Error('unparsed');
  expect(a.epochMs).toBe(b.epochMs);
  expect(c.epochMs).toBe(d.epochMs);
  expect([a, b, c, d].map((t) => counter.next(t, 'w'))).toEqual([0, 0, 0, 0]);
  expect([a, b, c, d].map((t) => counter.next(t, 'w'))).toEqual([1, 1, 1, 1]);
  counter.clear();
  expect(counter.next(a, 'w')).toBe(0);
});
