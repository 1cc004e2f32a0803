/**
 * The HAE envelope (docs/HEALTH-AUTO-EXPORT.md), made uniform before samples are read from it.
 *
 * Real bodies: `{"data": {"metrics": [...], "workouts": [...], "symptoms": []}}` (6 real files) and
 * section-only `{"metrics": [...]}` / `{"workouts": [...]}` without the `data` wrapper (the spark
 * files). Any section may be missing or `[]`, metric blocks may carry `"data": []`, points may
 * carry `"source": null` or no source. Nothing here throws: anything unreadable is dropped and
 * said in `warnings` (the webhook answers 200 with them so the phone does not retry forever), as
 * are the sections it does not read (other-sections.ts).
 */

import { isOtherSection, otherSectionWarnings, sectionEntries } from './other-sections.js';

/** One metric block as sent: `{name, units, data: [...]}` with only object points kept. */
export interface MetricBlock {
  /** Metric name as sent (trimmed), e.g. `step_count`. */
  name: string;
  /** The block's `units` string ('' when missing). */
  units: string;
  /** The points, each a plain object as sent. */
  data: Record<string, unknown>[];
}

/** A body reduced to the two sections ingestion reads. */
export interface NormalisedPayload {
  metrics: MetricBlock[];
  /** Workout objects as sent (v1 or v2, docs/HEALTH-AUTO-EXPORT.md). */
  workouts: Record<string, unknown>[];
  /** What was dropped or not ingested, one line per reason. */
  warnings: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A parsed HAE body (`JSON.parse` output, any value) → `{metrics, workouts, warnings}`. Accepts the
 * body with or without the `data` wrapper; missing, `null` or non-array sections read as empty.
 */
export function normalisePayload(parsed: unknown): NormalisedPayload {
  const warnings: string[] = [];
  if (!isObject(parsed)) {
    return {
      metrics: [],
      workouts: [],
      warnings: [`body is ${describe(parsed)}, not an HAE object; nothing ingested`],
    };
  }
  const body = isObject(parsed.data) ? parsed.data : parsed;
  if (body === parsed && parsed.data !== undefined) {
    warnings.push(`"data" is ${describe(parsed.data)}, not an object; read the top level instead`);
  }
  if (body.metrics === undefined && body.workouts === undefined) {
    warnings.push('body has neither "metrics" nor "workouts"');
  }

  const metrics: MetricBlock[] = [];
  let badBlocks = 0;
  let badPoints = 0;
  for (const block of sectionArray(body, 'metrics', warnings)) {
    if (!isObject(block) || typeof block.name !== 'string' || block.name.trim() === '') {
      badBlocks++;
      continue;
    }
    const name = block.name.trim();
    if (block.data !== undefined && block.data !== null && !Array.isArray(block.data)) {
      warnings.push(`metric ${name}: "data" is ${describe(block.data)}, not an array; skipped`);
      continue;
    }
    const data: Record<string, unknown>[] = [];
    for (const point of (block.data as unknown[] | undefined | null) ?? []) {
      if (isObject(point)) data.push(point);
      else badPoints++;
    }
    metrics.push({ name, units: typeof block.units === 'string' ? block.units.trim() : '', data });
  }
  if (badBlocks) warnings.push(`${badBlocks} metric block(s) without a name skipped`);
  if (badPoints) warnings.push(`${badPoints} metric point(s) that are not objects skipped`);

  const workouts: Record<string, unknown>[] = [];
  let badWorkouts = 0;
  for (const w of sectionArray(body, 'workouts', warnings)) {
    if (isObject(w)) workouts.push(w);
    else badWorkouts++;
  }
  if (badWorkouts) warnings.push(`${badWorkouts} workout(s) that are not objects skipped`);

  const others = new Map<string, number>();
  for (const key in body) if (isOtherSection(key)) others.set(key, sectionEntries(key, body[key]));
  warnings.push(...otherSectionWarnings(others));
  return { metrics, workouts, warnings };
}

function sectionArray(body: Record<string, unknown>, key: string, warnings: string[]): unknown[] {
  const v = body[key];
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  warnings.push(`"${key}" is ${describe(v)}, not an array; skipped`);
  return [];
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
