/**
 * The real HAE payloads in ../shared/cases/real-data/hae/, read at test time (never copied into
 * the repo), and the pure pipeline normalise → extract → aggregate over them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { aggregateRows, type HaeRow } from '../../src/ingest/hae/format/aggregate.js';
import { normalisePayload } from '../../src/ingest/hae/format/payload.js';
import type { Sample } from '../../src/ingest/hae/format/sample.js';
import { extractSamples } from '../../src/ingest/hae/format/samples.js';
import { casesDir } from '../helpers/sandbox-home.js';

export const haeDir = path.join(casesDir, 'real-data', 'hae');

/** Names of the real payload files. */
export const HAE_FILES = fs
  .readdirSync(haeDir)
  .filter((f) => f.endsWith('.json'))
  .sort();

/** The parsed JSON of one real file. */
export function readHae(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(haeDir, file), 'utf8'));
}

/** One real file through the pipeline; `rows(metric)` aggregates its samples, `on(metric, date)` one row. */
export function ingestFile(file: string) {
  const payload = normalisePayload(readHae(file));
  const extracted = extractSamples(payload);
  const rows = (metric: string): HaeRow[] => aggregateRows(metric, extracted.samples);
  const on = (metric: string, date: string): HaeRow | undefined => rows(metric).find((r) => r.date === date);
  return { payload, extracted, samples: extracted.samples as Sample[], rows, on };
}
