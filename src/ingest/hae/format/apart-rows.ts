/**
 * The row of one date made from two groups of its samples whose sources share no device, from
 * the two groups' rows alone (an Apple Health export lists a type's records source by source:
 * every date of the phone's steps, then every date of the watch's).
 *
 * It holds for the kinds whose day value is the largest (or smallest) of independent readings,
 * by aggregate.ts's rules: a `sum` that is not a logged intake (each family of devices sharing
 * one is summed into a reading, and the largest reading is the day's value; a reading is only
 * ever dropped for one of a family sharing its devices, and a midnight point is only weighed
 * against points sharing its devices) and `max`; a field reduced with `min` takes the smaller.
 * Rounding keeps order, so the larger of two rounded values is the rounded larger value. Every
 * other kind (averages, latest readings, logged intakes, which add independent devices, sleep,
 * workouts) needs all of the date's samples at once.
 */
import type { CatalogueEntry } from './catalogue.js';
import type { HaeRow } from './rows.js';
import { type SourceSet, sourceSet } from './sources.js';

/** True when joinApartRows gives the row of `entry` that aggregateRows gives of both groups together. */
export function joinsApart(entry: CatalogueEntry): boolean {
  return entry.kind === 'max' || (entry.kind === 'sum' && entry.loggedIntake !== true);
}

/**
 * The row of both groups (see the module comment; `joinsApart(entry)` must hold and the groups'
 * sources must share no device, see apartFrom): field by field the larger value, the smaller for
 * a field reduced with `min`, a field of one row alone as it is. Undefined when both are.
 */
export function joinApartRows(
  entry: CatalogueEntry,
  a: HaeRow | undefined,
  b: HaeRow | undefined,
): HaeRow | undefined {
  if (!a || !b) return a ?? b;
  const row: HaeRow = { date: a.date };
  for (const f of entry.fields) {
    const x = a[f.name];
    const y = b[f.name];
    if (typeof x !== 'number' || typeof y !== 'number') {
      const v = x ?? y;
      if (v !== undefined) row[f.name] = v;
      continue;
    }
    row[f.name] = f.reduce === 'min' ? Math.min(x, y) : Math.max(x, y);
  }
  return row;
}

/**
 * The device names of a group of samples, as aggregate.ts compares them (sourceSet), gathered
 * one sample at a time; null once a sample has no source (an unknown source cannot be told apart
 * from any device).
 */
export class SourceNames {
  names: Set<string> | null = new Set();
  private last: string | null | undefined;

  /** Adds a sample's source text. */
  add(source: string | null): void {
    // a device's samples come in runs: its text is split once per run
    if (this.names === null || source === this.last) return;
    this.last = source;
    const set = sourceSet(source);
    if (set === null) this.names = null;
    else for (const n of set) this.names.add(n);
  }

  /** True when a sample of `source` shares no device with these names (and both are known). */
  apartFrom(source: string | null): boolean {
    const set: SourceSet = sourceSet(source);
    if (set === null || this.names === null) return false;
    for (const n of set) if (this.names.has(n)) return false;
    return true;
  }

  /** These names and `other`'s. */
  join(other: SourceNames): void {
    if (this.names === null || other.names === null) {
      this.names = null;
      return;
    }
    for (const n of other.names) this.names.add(n);
    this.last = undefined;
  }
}
