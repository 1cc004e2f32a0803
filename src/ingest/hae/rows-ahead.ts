/**
 * Card rows made while a push or an export is read, from the samples as they are stored, so that
 * filling the cards afterwards need not read them back from the database.
 *
 * A card's row of one date is aggregateRows over every stored sample of its metric on that date,
 * in storage order. For the kinds whose row of a date depends on that date's samples alone (all
 * but sleep, which compares neighbouring nights, and workouts) the same row can be made from the
 * samples this import stored, as long as they are ALL the date's samples, in the same order:
 * - a date is only made here when every sample of it this import offered was new (a batch with
 *   an already stored sample marks its dates as not made here), so their storage order is the
 *   order they were read in;
 * - a date is kept apart from the others until it is done: Apple writes an export by type, then
 *   by date, so a date is done once a few later dates have started; a sample of a date already
 *   done (an export out of order) marks that date as not made here, except for the kinds whose
 *   rows join (format/apart-rows.ts) when the sample's source shares no device with the date's
 *   samples so far: Apple lists a type's records source by source, so the watch's steps of a
 *   date come long after the phone's; the date opens again for that source's samples, and its
 *   row is the two rows joined;
 * - when the rows are used, each date's stored sample count must still equal the count the row
 *   was made from: samples another push stored meanwhile, or stored before the import, make it
 *   differ, and that date is read back as before.
 * Every date not made here is read back from the database: the rows are those the read-back makes.
 */
import { aggregateRows, type HaeRow } from './format/aggregate.js';
import { joinApartRows, joinsApart, SourceNames } from './format/apart-rows.js';
import type { CatalogueEntry } from './format/catalogue.js';
import type { Sample } from './format/sample.js';

/** Dates of one metric kept open (not done) at once; the oldest opened is done when another opens. */
const OPEN_DATES = 3;
/** Samples kept open at once over all metrics; past it the oldest open dates are done early. */
const MAX_OPEN_SAMPLES = 60_000;

/** The row a date made (none when its samples make no row) and the samples it was made from. */
export interface RowAhead {
  row: HaeRow | undefined;
  samples: number;
}

/** A done date: its row, and the device names of the samples it was made from. */
interface DoneDate extends RowAhead {
  names: SourceNames;
}

/** An open date: its samples, their device names, and what an earlier source's pass made of it. */
interface OpenDate {
  samples: Sample[];
  names: SourceNames;
  before?: DoneDate;
}

/** The dates of one catalogue entry. */
interface EntryDates {
  entry: CatalogueEntry;
  /** True when a done date may take another source's samples (joinsApart). */
  joins: boolean;
  open: Map<string, OpenDate>;
  done: Map<string, DoneDate>;
  /** Dates never made here (see the module comment). */
  spoilt: Set<string>;
}

/** The kinds whose row of a date reads that date's samples only. */
function perDate(entry: CatalogueEntry): boolean {
  return entry.kind !== 'sleep' && entry.kind !== 'workouts';
}

/** Rows made as samples are stored (see the module comment). */
export class RowsAhead {
  /** Per sample metric (`entry.reads`), the entries reading it. */
  private readonly byMetric = new Map<string, EntryDates[]>();
  private readonly byKey = new Map<string, EntryDates>();
  private openSamples = 0;

  /**
   * @param entries the catalogue entries of the subscribed cards (others are ignored).
   * @param zone the person's IANA zone (undefined: the server's), which dates stamps written in
   *   UTC, as in the read-back.
   */
  constructor(
    entries: Iterable<CatalogueEntry>,
    private readonly zone?: string,
  ) {
    for (const entry of entries) {
      if (!perDate(entry) || this.byKey.has(entry.key)) continue;
      const e: EntryDates = {
        entry,
        joins: joinsApart(entry),
        open: new Map(),
        done: new Map(),
        spoilt: new Set(),
      };
      this.byKey.set(entry.key, e);
      const list = this.byMetric.get(entry.reads);
      if (list) list.push(e);
      else this.byMetric.set(entry.reads, [e]);
    }
  }

  /**
   * Takes samples just stored, in their storage order.
   * @param allNew every one of them was new to the store (else their dates are read back).
   */
  stored(samples: readonly Sample[], allNew: boolean): void {
    if (this.byMetric.size === 0) return;
    for (const s of samples) {
      const list = this.byMetric.get(s.metric);
      if (!list) continue;
      for (const e of list) this.add(e, s, allNew);
    }
    if (this.openSamples > MAX_OPEN_SAMPLES) this.doneOldest();
  }

  private add(e: EntryDates, s: Sample, allNew: boolean): void {
    const d = s.date;
    if (e.spoilt.has(d)) return;
    if (!allNew) {
      this.spoil(e, d);
      return;
    }
    const open = e.open.get(d);
    if (open) {
      if (open.before && !open.before.names.apartFrom(s.source)) {
        this.spoil(e, d);
        return;
      }
      open.samples.push(s);
      open.names.add(s.source);
      this.openSamples++;
      return;
    }
    const before = e.done.get(d);
    if (before) {
      // another source's pass over a done date (see the module comment)
      if (!e.joins || !before.names.apartFrom(s.source)) {
        this.spoil(e, d);
        return;
      }
      e.done.delete(d);
    }
    const names = new SourceNames();
    names.add(s.source);
    e.open.set(d, { samples: [s], names, before });
    this.openSamples++;
    if (e.open.size > OPEN_DATES) this.done(e, e.open.keys().next().value as string);
  }

  private spoil(e: EntryDates, date: string): void {
    const open = e.open.get(date);
    if (open) {
      this.openSamples -= open.samples.length;
      e.open.delete(date);
    }
    e.done.delete(date);
    e.spoilt.add(date);
  }

  /** Makes the row of an open date (joined to an earlier pass's row, if any). */
  private done(e: EntryDates, date: string): void {
    const open = e.open.get(date) as OpenDate;
    e.open.delete(date);
    this.openSamples -= open.samples.length;
    const row = aggregateRows(e.entry.key, open.samples, this.zone).find((r) => r.date === date);
    const before = open.before;
    if (!before) {
      e.done.set(date, { row, samples: open.samples.length, names: open.names });
      return;
    }
    before.names.join(open.names);
    e.done.set(date, {
      row: joinApartRows(e.entry, before.row, row),
      samples: before.samples + open.samples.length,
      names: before.names,
    });
  }

  /** Makes the rows of the oldest open date of each entry until the open samples fit again. */
  private doneOldest(): void {
    for (const e of this.byKey.values()) {
      while (e.open.size > 0 && this.openSamples > MAX_OPEN_SAMPLES / 2) {
        this.done(e, e.open.keys().next().value as string);
      }
    }
  }

  /** The file is read: makes the rows of every date still open. */
  finish(): void {
    for (const e of this.byKey.values()) for (const d of [...e.open.keys()]) this.done(e, d);
  }

  /** True when rows of the entry `key` can be made here (a kind whose row reads its date alone). */
  covers(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The row made here for `date` of the entry `key`, or undefined when the date must be read back. */
  get(key: string, date: string): RowAhead | undefined {
    return this.byKey.get(key)?.done.get(date);
  }
}
