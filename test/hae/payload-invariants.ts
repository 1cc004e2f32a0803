/**
 * What every HAE payload must give through normalise → extract → aggregate, as a suite run on the
 * generated payloads (`npm test`) and on the real ones (the cases suite): no warning, every metric
 * known, dated sorted finite rounded rows, stable dedup keys (a re-post changes nothing), and the
 * same rows when the payload is split across two posts.
 */
import { describe, expect, it } from 'vitest';
import { aggregateRows } from '../../src/ingest/hae/format/aggregate.js';
import { resolveMetric } from '../../src/ingest/hae/format/catalogue.js';
import { roundTo } from '../../src/ingest/hae/format/numbers.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { halvePayload } from '../helpers/hae-halves.js';
import { ingestPayload } from './hae-files.js';

/** Registers the invariants for each of `files`, read with `readHae`. */
export function payloadInvariantsSuite(
  label: string,
  files: string[],
  readHae: (file: string) => unknown,
): void {
  describe.each(files)(`${label} %s`, (file) => {
    const { payload, extracted, samples } = ingestPayload(readHae(file));
    const metrics = [...new Set(samples.map((s) => s.metric))];

    it('normalises and extracts every point without a warning, and knows every metric name in it', () => {
      expect(payload.warnings).toEqual([]);
      // real nights whose sleep or time in bed overruns their own window are adjusted and named
      expect(
        extracted.warnings.filter(
          (w) => !/^sleep_analysis: (sleep|time in bed) (longer than its night|over )/.test(w),
        ),
      ).toEqual([]);
      expect(extracted.skipped).toBe(0);
      expect(extracted.unknownMetrics).toEqual([]);
      expect(samples.length).toBeGreaterThan(0);
    });

    it('aggregates every catalogue metric it contains into dated, sorted, finite, rounded rows', () => {
      for (const metric of metrics) {
        const entry = resolveMetric(metric);
        expect(entry, metric).toBeDefined();
        const rows = aggregateRows(metric, samples);
        expect(rows.length, metric).toBeGreaterThan(0);
        const dates = rows.map((r) => r.date);
        expect(dates, metric).toEqual([...new Set(dates)].sort());
        for (const row of rows) {
          expect(row.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          for (const f of entry?.fields ?? []) {
            const v = row[f.name];
            if (typeof v === 'number') {
              expect(Number.isFinite(v), `${metric}.${f.name}`).toBe(true);
              expect(v, `${metric}.${f.name} on ${row.date}`).toBe(roundTo(v, f.decimals));
            }
          }
        }
        expect(JSON.stringify(rows)).not.toMatch(/NaN|Infinity|null/);
      }
    });

    it('gives identical dedup keys when extracted twice, and the same rows when posted twice', () => {
      const again = extractSamples(normalisePayload(readHae(file))).samples;
      expect(again.map((s) => s.dedupKey)).toEqual(samples.map((s) => s.dedupKey));
      expect(new Set(samples.map((s) => s.dedupKey)).size).toBe(samples.length);
      for (const metric of metrics) {
        expect(aggregateRows(metric, [...samples, ...again]), metric).toEqual(aggregateRows(metric, samples));
      }
    });

    it('gives the same rows when split across two posts as in one', () => {
      const [a, b] = halvePayload(readHae(file));
      const union = [
        ...extractSamples(normalisePayload(a)).samples,
        ...extractSamples(normalisePayload(b)).samples,
      ];
      expect(new Set(union.map((s) => s.dedupKey))).toEqual(new Set(samples.map((s) => s.dedupKey)));
      for (const metric of metrics) {
        expect(aggregateRows(metric, union), metric).toEqual(aggregateRows(metric, samples));
      }
    });
  });
}
