/**
 * Dedup keys are stored: the faster spelling of the key text in dedupKeyOf, and extraction that
 * skips counting identical copies in a lone daily block, must give exactly the keys of the first
 * implementation (kept below as `referenceKey`, JSON.stringify of the nested arrays) on every
 * generated payload and on awkward values; the source is the text its key is made from (a list of
 * devices in one order, sourceKeyText), as sent for a single name or a list in that order.
 */
import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OccurrenceCounter } from '../../src/ingest/hae/format/occurrences.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import { dedupKeyOf, type SampleSpan, type SampleValue } from '../../src/ingest/hae/format/sample.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { sourceKeyText } from '../../src/ingest/hae/format/sources.js';
import { type HaeTime, parseHaeTimestamp } from '../../src/ingest/hae/format/timestamps.js';
import { GENERATED_HAE_FILES, generatedHaeText } from '../fixtures/hae-payloads.js';

/** The key as first written (the stored keys were made by it). */
function referenceKey(
  metric: string,
  time: HaeTime,
  span: SampleSpan,
  values: Record<string, SampleValue>,
  source: string | null,
): string {
  const keys = Object.keys(values).sort();
  const sorted: [string, SampleValue][] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) sorted[i] = [keys[i], values[keys[i]]];
  const keyed = source === null ? null : sourceKeyText(source);
  const text = JSON.stringify([metric, time.canonical, span, keyed, sorted]);
  return hash('sha256', text, 'hex').slice(0, 32);
}

const time = (s: string): HaeTime => {
  const t = parseHaeTimestamp(s);
  if (!t) throw new Error(`unreadable ${s}`);
  return t;
};

describe('dedupKeyOf', () => {
  for (const name of GENERATED_HAE_FILES) {
    it(`gives the reference keys for every sample of ${name}, with either span`, () => {
      const payload = normalisePayload(JSON.parse(generatedHaeText(name)));
      const { samples } = extractSamples(payload);
      expect(samples.length).toBeGreaterThan(0);
      for (const s of samples) {
        const t = time(s.at);
        for (const span of ['day', 'sample'] as const) {
          expect(dedupKeyOf(s.metric, t, span, s.values, s.source)).toBe(
            referenceKey(s.metric, t, span, s.values, s.source),
          );
        }
        expect(s.dedupKey).toBe(referenceKey(s.metric, t, s.span, s.keyValues ?? s.values, s.source));
      }
    });
  }

  it('gives the reference keys for awkward names, sources and values', () => {
    const t = time('2024-09-21 7:57:00 pm +1000');
    const texts = [
      '',
      'plain',
      'quote " and \\ backslash',
      'tab\tnew\nline',
      'Sam’s Apple\u00a0Watch',
      '\ud800 lone',
      'emoji 😀',
      '\u0001\u001f',
      'ünïcödé',
    ];
    const numbers = [
      0,
      -0,
      1,
      -1.5,
      0.1 + 0.2,
      1e21,
      1e-7,
      123456789.123,
      Number.MAX_SAFE_INTEGER,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ];
    const odd: unknown[] = [true, false, null, undefined, { nested: [1, 'x'] }, [1, 2], new Date(0)];
    let checked = 0;
    for (const metric of texts) {
      for (const source of [null, ...texts]) {
        const values: Record<string, unknown> = {};
        texts.forEach((k, i) => {
          values[`${k}${i}`] = [...numbers, ...texts, ...odd][
            (i * 7 + checked) % (numbers.length + texts.length + odd.length)
          ];
        });
        for (const v of [
          values,
          {},
          { only: numbers[checked % numbers.length] },
          { b: 1, a: 2, B: 3, ä: 4, '10': 5, '9': 6 },
        ]) {
          const vals = v as Record<string, SampleValue>;
          expect(dedupKeyOf(metric, t, 'sample', vals, source)).toBe(
            referenceKey(metric, t, 'sample', vals, source),
          );
          checked++;
        }
      }
    }
    expect(checked).toBe(texts.length * (texts.length + 1) * 4);
  });

  it('gives the reference keys for zone-less, date-only and fractional instants', () => {
    for (const s of [
      '2023-03-25',
      '2023-03-25 00:00:00',
      '2025-08-12T08:17:51.250Z',
      '2025-08-12T08:17:51+01:00',
    ]) {
      const t = time(s);
      expect(dedupKeyOf('m', t, 'day', { qty: 1 }, 'src')).toBe(
        referenceKey('m', t, 'day', { qty: 1 }, 'src'),
      );
    }
  });
});

describe('extractSamples of one block', () => {
  for (const name of GENERATED_HAE_FILES) {
    it(`gives the same samples with and without counting copies in ${name}`, () => {
      const payload = normalisePayload(JSON.parse(generatedHaeText(name)));
      for (const block of payload.metrics) {
        const part = { metrics: [block], workouts: [], warnings: [] };
        // a counter passed in is always consulted: the way every block was read before
        expect(extractSamples(part)).toEqual(extractSamples(part, new OccurrenceCounter()));
      }
    });
  }

  it('still numbers identical copies when a daily block is read twice in one payload', () => {
    const block = {
      name: 'step_count',
      units: 'count',
      data: [
        { date: '2024-01-01 00:00:00 +0000', qty: 5, source: 'Watch' },
        { date: '2024-01-02 00:00:00 +0000', qty: 6, source: 'Watch' },
      ],
    };
    const once = extractSamples({ metrics: [block], workouts: [], warnings: [] }).samples;
    const twice = extractSamples({ metrics: [block, block], workouts: [], warnings: [] }).samples;
    expect(once.map((s) => s.span)).toEqual(['day', 'day']);
    expect(twice.map((s) => s.values.seq)).toEqual([undefined, undefined, 1, 1]);
    expect(twice.slice(0, 2)).toEqual(once);
  });

  it('numbers identical copies inside one block of minute samples', () => {
    const point = { date: '2024-01-01 08:15:00 +0000', qty: 5, source: 'Watch' };
    const block = { name: 'step_count', units: 'count', data: [point, point, { ...point, qty: 6 }, point] };
    const { samples } = extractSamples({ metrics: [block], workouts: [], warnings: [] });
    expect(samples.map((s) => [s.span, s.values.seq])).toEqual([
      ['sample', undefined],
      ['sample', 1],
      ['sample', undefined],
      ['sample', 2],
    ]);
    expect(new Set(samples.map((s) => s.dedupKey)).size).toBe(4);
  });
});
