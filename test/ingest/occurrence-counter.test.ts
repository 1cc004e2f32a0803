/**
 * OccurrenceCounter (src/ingest/hae/format/occurrences.ts): how many times each sample content was
 * read before, the `seq` of identical copies. Its table grows from 1024 slots; these runs cross
 * several growths and compare every answer with a plain Map of the content keys.
 */
import { hash } from 'node:crypto';
import { expect, it } from 'vitest';
import { OccurrenceCounter } from '../../src/ingest/hae/format/occurrences.js';

const keyOf = (n: number) => hash('sha256', `content ${n}`, 'hex').slice(0, 32);

it('counts each content like a map of its key, across table growth', () => {
  const counter = new OccurrenceCounter();
  const expected = new Map<string, number>();
  const see = (n: number) => {
    const key = keyOf(n);
    const want = expected.get(key) ?? 0;
    expected.set(key, want + 1);
    expect(counter.next(key)).toBe(want);
  };
  for (let m = 0; m < 60_000; m++) {
    see(m);
    if (m % 3 === 0) see(m);
    if (m >= 1000 && m % 7 === 0) see(m - 1000);
    if (m >= 5000 && m % 4 === 0) see(m - 5000);
  }
  expect(expected.size).toBe(60_000);
  expect([...expected.values()].filter((n) => n >= 3).length).toBeGreaterThan(1000);
});

it('keys that share their first 8 or their next 13 hex digits are other contents', () => {
  const counter = new OccurrenceCounter();
  const a = '0123456789abcdef0123456789abcdef';
  const b = `${a.slice(0, 8)}fffffffffffff${a.slice(21)}`;
  const c = `ffffffff${a.slice(8)}`;
  expect([a, b, c].map((k) => counter.next(k))).toEqual([0, 0, 0]);
  expect([c, b, a, a].map((k) => counter.next(k))).toEqual([1, 1, 1, 2]);
});
