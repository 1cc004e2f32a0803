/**
 * Sleep samples → one row per wake day (the `sleep` aggregation kind; docs/HEALTH-AUTO-EXPORT.md and
 * the "Sleep" and "Multiple sources" pitfalls).
 *
 * 1. Every aggregated row is a night `[sleepStart, sleepEnd]`; unaggregated segments of one source
 *    are chained into nights (gaps up to SLEEP_SEGMENT_GAP_MS), each stage measured as the union
 *    of its intervals, so a segment sent twice is not counted twice; the night's sleep is the
 *    union of its staged and plain asleep time (asleepIntervals).
 * 2. Nights whose windows overlap (by instant) are versions of the same sleep: a partial night
 *    re-sent complete, or one night reported by several sources. Of these, a night whose source
 *    set is strictly contained in another's is dropped (the combined `a|b` row already merges it),
 *    then per source set the version with the latest end wins (the complete one), then the
 *    version with the most sleep wins across sources (adding sources would double count).
 * 3. The surviving nights are grouped by the local date they end on (the wake day) and summed,
 *    so a night plus an afternoon nap make that day's total; bedTime, wakeTime and source are
 *    those of the longest one.
 * 4. In bed is never less than asleep (docs/HEALTH-AUTO-EXPORT.md is silent; this is what a person expects): when
 *    any night of the day reports in-bed time, the day's `inBed` is the sum over its nights of
 *    each night's own in-bed time, at least its sleep. A night from a source that records only
 *    sleep (Apple Health's "Asleep" from the Health app) counts its sleep as time in bed, so a
 *    separate short in-bed record of another app (Clock's 19 minutes after waking) adds to the
 *    10 h night (10.32) instead of standing for the whole day (0.32). Nights that overlap were
 *    already reduced to one in rule 2, so no time is counted twice.
 * 5. Time in bed comes from every version of a night, whatever its source: the night picked in
 *    rule 2 gets the longest in-bed time of the nights it overlaps. The usual setup is the iPhone
 *    recording "in bed" (22:00-07:00) and the Watch the sleep stages; the Watch's night has the
 *    most sleep and wins, and without this rule the 9 h in bed of the iPhone would be lost.
 */
import type { CatalogueEntry } from './catalogue.js';
import { SLEEP_SEGMENT_GAP_MS } from './limits.js';
import { byDate, finishRow, type HaeRow } from './rows.js';
import type { Sample } from './sample.js';
import { dropCoveredSources, type SourceSet, sourceSet, sourceSetKey } from './sources.js';
import { localHourMinute, parseHaeTimestamp } from './timestamps.js';

const HOUR_MS = 3_600_000;
/** Durations a night row carries, hours. */
const NIGHT_FIELDS = ['hours', 'asleep', 'inBed', 'deep', 'rem', 'core', 'unspecified', 'awake'] as const;
const SLEEP_STAGES = ['core', 'deep', 'rem', 'unspecified'];

interface Night {
  start: number;
  end: number;
  date: string;
  bedTime?: string;
  wakeTime?: string;
  source: string | null;
  set: SourceSet;
  d: Partial<Record<(typeof NIGHT_FIELDS)[number], number>>;
  order: number;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function nightFromRow(s: Sample, order: number, zone: string | undefined): Night | undefined {
  const v = s.values;
  const ends = parseHaeTimestamp(v.sleepEnd, zone) ?? parseHaeTimestamp(v.inBedEnd, zone);
  const end = ends ?? parseHaeTimestamp(s.at, zone);
  if (!end) return undefined;
  // a night known by its date alone, written as the day at midnight (a day's bucket, as a daily
  // summary stamps it), has no wake time: 00:00 is the bucket's, not the person's
  const woke = ends !== null || end.time !== '00:00:00';
  const start = parseHaeTimestamp(v.sleepStart, zone) ?? parseHaeTimestamp(v.inBedStart, zone);
  const d: Night['d'] = {};
  for (const k of NIGHT_FIELDS) {
    const n = num(v[k]);
    if (n !== undefined) d[k] = n;
  }
  const span = Math.max(d.hours ?? 0, d.inBed ?? 0) * HOUR_MS;
  return {
    start: start ? start.epochMs : end.epochMs - span,
    end: end.epochMs,
    date: s.date,
    ...(start ? { bedTime: localHourMinute(start) } : {}),
    ...(woke ? { wakeTime: localHourMinute(end) } : {}),
    source: s.source,
    set: sourceSet(s.source),
    d,
    order,
  };
}

interface Segment {
  stage: string;
  start: number;
  end: number;
  startText: string;
  endText: string;
  date: string;
  order: number;
}

/** Total length of the union of intervals, hours. */
function unionHours(intervals: [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = Number.NEGATIVE_INFINITY;
  let curEnd = Number.NEGATIVE_INFINITY;
  for (const [a, b] of sorted) {
    if (a > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = a;
      curEnd = b;
    } else if (b > curEnd) curEnd = b;
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total / HOUR_MS;
}

/**
 * The intervals a night's segments say the person slept: its staged segments, and its plain
 * `asleep` and `unspecified` ones (asleep, stage unknown: one HealthKit value, named both ways)
 * less any time a segment says awake. One source may write both on one night (the
 * first hours as plain asleep, the rest in stages, or an unstaged stretch the watch could not
 * stage): the night is all of it, the time both cover counted once, the unstaged time not
 * dropped because stages exist; awake time inside a plain asleep segment is not sleep.
 */
function asleepIntervals(segs: readonly Segment[]): [number, number][] {
  const out: [number, number][] = [];
  const awake = segs.filter((g) => g.stage === 'awake').sort((a, b) => a.start - b.start);
  for (const g of segs) {
    if (g.stage === 'asleep' || g.stage === 'unspecified') out.push(...without([g.start, g.end], awake));
    else if (SLEEP_STAGES.includes(g.stage)) out.push([g.start, g.end]);
  }
  return out;
}

/** The parts of `iv` no interval of `cut` (sorted by start) covers. */
function without(iv: [number, number], cut: readonly Segment[]): [number, number][] {
  const out: [number, number][] = [];
  let from = iv[0];
  for (const c of cut) {
    if (c.end <= from || c.start >= iv[1]) continue;
    if (c.start > from) out.push([from, c.start]);
    from = Math.max(from, c.end);
  }
  if (from < iv[1]) out.push([from, iv[1]]);
  return out;
}

function nightFromSegments(segs: Segment[], source: string | null, zone: string | undefined): Night {
  const d: Night['d'] = {};
  for (const stage of ['asleep', 'inBed', 'awake', ...SLEEP_STAGES] as const) {
    const ivs = segs.filter((g) => g.stage === stage).map((g): [number, number] => [g.start, g.end]);
    if (ivs.length) d[stage as keyof Night['d']] = unionHours(ivs);
  }
  const staged = segs.filter((g) => SLEEP_STAGES.includes(g.stage));
  const asleep = [...staged, ...segs.filter((g) => g.stage === 'asleep')];
  d.hours = unionHours(asleepIntervals(segs));
  const first = (asleep.length ? asleep : segs).reduce((a, b) => (b.start < a.start ? b : a));
  const last = (asleep.length ? asleep : segs).reduce((a, b) => (b.end > a.end ? b : a));
  const lastAny = segs.reduce((a, b) => (b.end > a.end ? b : a));
  const bed = parseHaeTimestamp(first.startText, zone);
  const wake = parseHaeTimestamp(last.endText, zone);
  return {
    start: Math.min(...segs.map((g) => g.start)),
    end: lastAny.end,
    date: lastAny.date,
    ...(bed ? { bedTime: localHourMinute(bed) } : {}),
    ...(wake ? { wakeTime: localHourMinute(wake) } : {}),
    source,
    set: sourceSet(source),
    d,
    order: Math.max(...segs.map((g) => g.order)),
  };
}

/** Segments of one source chained into nights: a gap over SLEEP_SEGMENT_GAP_MS starts a new night. */
function nightsFromSegments(samples: { s: Sample; order: number }[], zone: string | undefined): Night[] {
  const bySource = new Map<string, { source: string | null; segs: Segment[] }>();
  for (const { s, order } of samples) {
    const start = parseHaeTimestamp(s.values.start);
    const end = parseHaeTimestamp(s.values.end);
    if (!start || !end || typeof s.values.stage !== 'string') continue;
    const key = sourceSetKey(sourceSet(s.source));
    const group = bySource.get(key) ?? { source: s.source, segs: [] };
    group.segs.push({
      stage: s.values.stage,
      start: start.epochMs,
      end: end.epochMs,
      startText: String(s.values.start),
      endText: String(s.values.end),
      date: s.date,
      order,
    });
    bySource.set(key, group);
  }
  const nights: Night[] = [];
  for (const { source, segs } of bySource.values()) {
    segs.sort((a, b) => a.start - b.start);
    let current: Segment[] = [];
    let currentEnd = Number.NEGATIVE_INFINITY;
    for (const g of segs) {
      if (current.length && g.start > currentEnd + SLEEP_SEGMENT_GAP_MS) {
        nights.push(nightFromSegments(current, source, zone));
        current = [];
      }
      current.push(g);
      currentEnd = current.length === 1 ? g.end : Math.max(currentEnd, g.end);
    }
    if (current.length) nights.push(nightFromSegments(current, source, zone));
  }
  return nights;
}

/** Picks one night out of mutually overlapping ones (rule 2 of the module comment). */
function pickVersion(cluster: Night[]): Night {
  const bySet = new Map<string, Night>();
  for (const n of dropCoveredSources(cluster, (x) => x.set)) {
    const key = sourceSetKey(n.set);
    const prev = bySet.get(key);
    if (!prev || n.end > prev.end || (n.end === prev.end && n.order > prev.order)) bySet.set(key, n);
  }
  let best: Night | undefined;
  for (const n of bySet.values()) {
    const h = n.d.hours ?? 0;
    const bh = best?.d.hours ?? 0;
    if (!best || h > bh || (h === bh && n.order > best.order)) best = n;
  }
  return withInBedOf(best as Night, cluster);
}

/**
 * The picked night with the longest in-bed time any version of it reports (rule 5 of the module
 * comment): the iPhone records "in bed", the Watch the stages, so the night with the stages
 * often carries no in-bed time of its own.
 */
function withInBedOf(night: Night, cluster: readonly Night[]): Night {
  let inBed = night.d.inBed ?? 0;
  for (const n of cluster) inBed = Math.max(inBed, n.d.inBed ?? 0);
  return inBed > (night.d.inBed ?? 0) ? { ...night, d: { ...night.d, inBed } } : night;
}

/**
 * Sleep samples (metric `sleep_analysis`, already deduplicated) → rows `{date, hours?, asleep?,
 * inBed?, deep?, rem?, core?, unspecified?, awake?, bedTime?, wakeTime?, source?}` sorted by date;
 * durations in hours (2 decimals), times `HH:MM` local. A duration that adds up to 0 is left out,
 * not written as 0: HAE writes 0 for "not reported" (2025 rows send `asleep: 0` beside filled
 * stages; some wearables send every stage as 0; the Jan 2023 shape sends `asleep: 0` for
 * watch-staged nights), and a 0 `hours` would read as "did not sleep". `zone`: the person's, whose
 * clock gives bedTime and wakeTime of stamps written in UTC (instant-zone.ts).
 */
export function sleepRows(entry: CatalogueEntry, samples: readonly Sample[], zone?: string): HaeRow[] {
  const nights: Night[] = [];
  const segments: { s: Sample; order: number }[] = [];
  samples.forEach((s, order) => {
    if (typeof s.values.stage === 'string') segments.push({ s, order });
    else {
      const n = nightFromRow(s, order, zone);
      if (n) nights.push(n);
    }
  });
  nights.push(...nightsFromSegments(segments, zone));
  nights.sort((a, b) => a.start - b.start || a.end - b.end);

  const winners: Night[] = [];
  let cluster: Night[] = [];
  let clusterEnd = Number.NEGATIVE_INFINITY;
  for (const n of nights) {
    if (cluster.length && n.start >= clusterEnd) {
      winners.push(pickVersion(cluster));
      cluster = [];
    }
    cluster.push(n);
    clusterEnd = cluster.length === 1 ? n.end : Math.max(clusterEnd, n.end);
  }
  if (cluster.length) winners.push(pickVersion(cluster));

  const byDay = new Map<string, Night[]>();
  for (const n of winners) byDay.set(n.date, [...(byDay.get(n.date) ?? []), n]);
  const rows: HaeRow[] = [];
  for (const [date, day] of byDay) {
    const totals: Record<string, number | string | undefined> = {};
    for (const k of NIGHT_FIELDS) {
      const present = day.filter((n) => n.d[k] !== undefined);
      if (present.length) totals[k] = present.reduce((sum, n) => sum + (n.d[k] as number), 0);
    }
    if (day.some((n) => (n.d.inBed ?? 0) > 0)) {
      totals.inBed = day.reduce((sum, n) => sum + Math.max(n.d.inBed ?? 0, n.d.hours ?? 0), 0);
    }
    for (const k of NIGHT_FIELDS)
      if (!((totals[k] as number | undefined) && (totals[k] as number) > 0)) delete totals[k];
    const main = day.reduce((a, b) => ((b.d.hours ?? 0) > (a.d.hours ?? 0) ? b : a));
    totals.bedTime = main.bedTime;
    totals.wakeTime = main.wakeTime;
    totals.source = main.source ?? undefined;
    const row = finishRow(entry, date, totals);
    if (row) rows.push(row);
  }
  return byDate(rows);
}
