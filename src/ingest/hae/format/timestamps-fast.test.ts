/**
 * The timestamp fast path gives exactly what the pattern gives: the usual spelling read without
 * the pattern is compared with the same string padded by a space, which takes the pattern.
 * Random inputs from a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import { parseHaeTimestamp } from './timestamps.js';

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

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const two = (n: number) => String(n).padStart(2, '0');

describe('timestamp fast path', () => {
  it('reads `YYYY-MM-DD HH:MM:SS ±HHMM` as the pattern does, impossible values included', () => {
    const r = rng(20261203);
    let valid = 0;
    for (let i = 0; i < 20_000; i++) {
      const y = pick(r, [1899, 1970, 2000, 2019, 2024, 2100, 9999]);
      const mo = Math.floor(r() * 14);
      const d = Math.floor(r() * 33);
      const h = Math.floor(r() * 26);
      const mi = Math.floor(r() * 62);
      const s = Math.floor(r() * 62);
      const oh = Math.floor(r() * 16);
      const om = pick(r, [0, 0, 30, 45, 59, 60, 99]);
      let text = `${y}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)} ${pick(r, ['+', '-'])}${two(oh)}${two(om)}`;
      // now and then a character out of place
      if (r() < 0.05) {
        const at = Math.floor(r() * text.length);
        text = text.slice(0, at) + pick(r, ['x', ' ', ':', '0', 'T']) + text.slice(at + 1);
      }
      expect(text.length).toBe(25);
      const fast = parseHaeTimestamp(text);
      const slow = parseHaeTimestamp(` ${text}`);
      expect(fast, text).toEqual(slow);
      if (fast) valid++;
    }
    expect(valid).toBeGreaterThan(5000);
  });

  it('spells -0000 and midnight the same either way', () => {
    for (const text of [
      '2024-03-31 00:00:00 -0000',
      '2024-02-29 23:59:59 +1400',
      '2024-10-27 02:30:00 +0100',
    ]) {
      expect(parseHaeTimestamp(text)).toEqual(parseHaeTimestamp(`${text} `));
    }
  });
});
