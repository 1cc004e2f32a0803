/**
 * roundTo's shortcut (no 15-digit text round trip away from halves) rounds exactly as the round
 * trip does, for random values of every size and the float artefacts the round trip exists for.
 */
import { describe, expect, it } from 'vitest';
import { roundTo } from './numbers.js';

/** roundTo as first written: always cut to 15 significant digits, then round. */
function reference(x: number, decimals: number): number | undefined {
  if (!Number.isFinite(x)) return undefined;
  const f = 10 ** decimals;
  const scaled = Number((Math.abs(x) * f).toPrecision(15));
  const r = (Math.sign(x) * Math.round(scaled)) / f;
  return Object.is(r, -0) ? 0 : r;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('roundTo', () => {
  it('keeps the examples it was made for', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(18.799999999999997, 1)).toBe(18.8);
    expect(roundTo(47 * 0.4, 1)).toBe(18.8);
    expect(roundTo(-0.0001, 2)).toBe(0);
    expect(roundTo(Number.NaN, 1)).toBeUndefined();
  });

  it('rounds as the 15-digit round trip does, for random values, halves and sums of decimals', () => {
    const r = rng(42);
    const differ: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const decimals = Math.floor(r() * 4);
      const kind = i % 4;
      let x: number;
      if (kind === 0) x = (r() - 0.5) * 10 ** Math.floor(r() * 18);
      else if (kind === 1) x = (Math.floor(r() * 1e6) + 0.5) / 10 ** decimals;
      else if (kind === 2) x = Math.floor(r() * 1000) * 0.1 + Math.floor(r() * 1000) * 0.01;
      else x = Math.floor(r() * 1e5) / 10 ** Math.floor(r() * 6);
      if (roundTo(x, decimals) !== reference(x, decimals)) differ.push(`${x} to ${decimals}`);
    }
    expect(differ).toEqual([]);
  });
});
