/**
 * A stored sample read again through the same path a push takes (extractSamples), as a migration
 * does when how a metric is read changed (a name now known, a percentage now scaled): the sample
 * it makes now, with its day, its instant and its values, and the copy number (`seq`) of a sample
 * a push held more than once kept as it was.
 */
import type { SampleValue } from './format/sample.js';
import { extractSamples } from './format/samples.js';
import { parseHaeTimestamp } from './format/timestamps.js';

/** A sample made again from one stored point. */
export interface RereadPoint {
  metric: string;
  date: string;
  time: NonNullable<ReturnType<typeof parseHaeTimestamp>>;
  values: Record<string, SampleValue>;
  keyValues: Record<string, SampleValue>;
  source: string | null;
}

/**
 * The one sample `point` makes as a point of the metric `name` sent in `units`, in the zone
 * `zone`; `seq` the stored copy number. Undefined when it makes none (or more than one), or its
 * stamp no longer reads.
 */
export function rereadPoint(
  name: string,
  units: string,
  point: Record<string, unknown>,
  seq: SampleValue | undefined,
  zone: string | undefined,
): RereadPoint | undefined {
  const block = { name, units, data: [point] };
  const ex = extractSamples({ metrics: [block], workouts: [], warnings: [] }, undefined, undefined, zone);
  if (ex.samples.length !== 1) return undefined;
  const s = ex.samples[0];
  const time = parseHaeTimestamp(s.at, zone);
  if (!time) return undefined;
  const copy: Record<string, SampleValue> = typeof seq === 'number' && seq > 0 ? { seq } : {};
  return {
    metric: s.metric,
    date: s.date,
    time,
    values: { ...s.values, ...copy },
    keyValues: { ...(s.keyValues ?? s.values), ...copy },
    source: s.source,
  };
}
