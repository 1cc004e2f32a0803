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

import { isOtherSection, otherSectionWarnings, sectionEntries, sectionMetric } from './other-sections.js';

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

/** Keys a relay in front of the webhook wraps the app's body in (`{"data": {"data": {...}}}`). */
const WRAPPERS = ['data', 'payload', 'body'] as const;
/** Wrappings looked into at most. */
const MAX_WRAPPING = 4;

/**
 * The objects in `v` that hold the app's sections: `v` itself when it has `metrics` or
 * `workouts`, else what a wrapper key of it holds (an object, a list of bodies, or the body as a
 * JSON text, as relays that stringify it send it), else `v` itself; every element of a list (a
 * batch of bodies), or a list of metric blocks as one body's `metrics`. Empty when `v` holds no
 * object.
 */
function envelopes(v: unknown, depth: number): Record<string, unknown>[] {
  if (depth > MAX_WRAPPING) return [];
  if (typeof v === 'string') {
    if (depth === 0 || !/^\s*[[{]/.test(v)) return [];
    try {
      return envelopes(JSON.parse(v), depth + 1);
    } catch {
      return [];
    }
  }
  if (Array.isArray(v)) {
    // the app's metric blocks passed on alone (`data.metrics` taken out by a relay)
    if (v.length > 0 && v.every(isMetricBlock)) return [{ metrics: v }];
    return v.flatMap((e) => (typeof e === 'string' ? [] : envelopes(e, depth + 1)));
  }
  if (!isObject(v)) return [];
  if (v.metrics !== undefined || v.workouts !== undefined) return [v];
  for (const key of WRAPPERS) {
    const inner = v[key];
    if (inner === undefined || inner === null) continue;
    const found = envelopes(inner, depth + 1);
    if (found.length > 0) return found;
  }
  return [v];
}

/** True for an object shaped as a metric block: a `name` and a `data` list. */
function isMetricBlock(v: unknown): boolean {
  return isObject(v) && typeof v.name === 'string' && Array.isArray(v.data);
}

/**
 * A parsed HAE body (`JSON.parse` output, any value) → `{metrics, workouts, warnings}`. Accepts the
 * body with or without the `data` wrapper, and as relays pass it on: wrapped again (`data`,
 * `payload`, `body`), as a JSON text inside such a key, a list of bodies (their sections read
 * together) or the list of metric blocks alone; missing, `null` or non-array sections read as
 * empty.
 */
export function normalisePayload(parsed: unknown): NormalisedPayload {
  const bodies = envelopes(parsed, 0);
  if (bodies.length === 0) {
    return {
      metrics: [],
      workouts: [],
      warnings: [`body is ${describe(parsed)}, not an HAE object; nothing ingested`],
    };
  }
  const warnings: string[] = [];
  if (isObject(parsed) && bodies[0] === parsed && parsed.data !== undefined) {
    warnings.push(`"data" is ${describe(parsed.data)}, not an object; read the top level instead`);
  }
  const metrics: MetricBlock[] = [];
  const workouts: Record<string, unknown>[] = [];
  const counts = { badBlocks: 0, badPoints: 0, badWorkouts: 0 };
  const others = new Map<string, number>();
  for (const body of bodies) readSections(body, { metrics, workouts, warnings, counts, others });
  if (counts.badBlocks) warnings.push(`${counts.badBlocks} metric block(s) without a name skipped`);
  if (counts.badPoints) warnings.push(`${counts.badPoints} metric point(s) that are not objects skipped`);
  if (counts.badWorkouts) warnings.push(`${counts.badWorkouts} workout(s) that are not objects skipped`);
  warnings.push(...otherSectionWarnings(others));
  return { metrics, workouts, warnings };
}

/** What readSections adds to, over every body of a payload. */
interface Sections {
  metrics: MetricBlock[];
  workouts: Record<string, unknown>[];
  warnings: string[];
  counts: { badBlocks: number; badPoints: number; badWorkouts: number };
  /** The other sections and their entries (other-sections.ts). */
  others: Map<string, number>;
}

/** One body's sections into `into`. */
function readSections(body: Record<string, unknown>, into: Sections): void {
  const { warnings, counts } = into;
  if (body.metrics === undefined && body.workouts === undefined && !hasReadSection(body)) {
    warnings.push('body has neither "metrics" nor "workouts"');
  }
  for (const block of sectionArray(body, 'metrics', warnings)) {
    if (!isObject(block) || typeof block.name !== 'string' || block.name.trim() === '') {
      counts.badBlocks++;
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
      else counts.badPoints++;
    }
    into.metrics.push({ name, units: typeof block.units === 'string' ? block.units.trim() : '', data });
  }
  for (const w of sectionArray(body, 'workouts', warnings)) {
    if (isObject(w)) into.workouts.push(w);
    else counts.badWorkouts++;
  }
  for (const key in body) {
    const metric = sectionMetric(key);
    // one entry may come as an object instead of a list of one
    if (metric !== undefined)
      readSectionBlock(metric, isObject(body[key]) ? [body[key]] : sectionArray(body, key, warnings), into);
    if (!isOtherSection(key)) continue;
    into.others.set(key, (into.others.get(key) ?? 0) + sectionEntries(key, body[key]));
  }
}

/** True when `body` holds a section read as a metric block (symptoms, medications). */
function hasReadSection(body: Record<string, unknown>): boolean {
  for (const key in body) if (sectionMetric(key) !== undefined) return true;
  return false;
}

/** A section read as a metric block (other-sections.ts sectionMetric): its entries are the points. */
function readSectionBlock(metric: string, entries: unknown[], into: Sections): void {
  if (entries.length === 0) return;
  const data: Record<string, unknown>[] = [];
  for (const e of entries) {
    if (isObject(e)) data.push(e);
    else into.counts.badPoints++;
  }
  into.metrics.push({ name: metric, units: 'count', data });
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
