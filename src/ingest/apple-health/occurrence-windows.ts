/**
 * The identical-sample counts of a whole export.xml (the `seq` of copies, docs/HEALTH-AUTO-EXPORT.md
 * "Same-instant samples") in memory that stays flat however large the file is.
 *
 * One table for the whole file grows with it (16 bytes a slot, ~64 MB for a 1 GB export). But a
 * content key covers the sample's metric and its instant as written, so two identical samples
 * always share (metric, local date): the counts split into one small table per (metric, date)
 * without changing any answer. Apple writes an export grouped by type, and within a type in date
 * order, so only a few of these tables are in use at a time: the least recently used are written to
 * a spill file once the tables in memory pass MAX_SLOTS_IN_MEMORY, and read back (exactly as they
 * were) if their (metric, date) comes again. The answers are those of one OccurrenceCounter for the
 * whole file, whatever the order of the records.
 */
import fs from 'node:fs';
import { OccurrenceCounter, type OccurrenceCounting } from '../hae/format/occurrences.js';

/** Slots of all the tables kept in memory together (16 bytes each: 4 MB). */
const MAX_SLOTS_IN_MEMORY = 256 * 1024;
/** Slots of a new (metric, date) table: most hold a few dozen to a few thousand samples. */
const WINDOW_SLOTS = 64;

/** A table written to the spill file: where its dump() sits. */
interface Spilled {
  at: number;
  bytes: number;
}

/** OccurrenceCounter per (metric, date), the least recently used written to `spillFile` (see the module comment). */
export class OccurrenceWindows implements OccurrenceCounting {
  /** Tables in memory, least recently used first. */
  private readonly live = new Map<string, OccurrenceCounter>();
  private readonly spilled = new Map<string, Spilled>();
  /** Slots of the tables in `live`. */
  private liveSlots = 0;
  private fd: number | undefined;
  private spillEnd = 0;
  private lastMetric = '';
  private lastDate = '';
  private last: OccurrenceCounter | undefined;

  /**
   * @param spillFile created on first use (mode 0600), removed by close(); a file of the import's
   *   own (beside the upload), never shared.
   * @param maxSlots slots kept in memory (tests make it small to spill often).
   */
  constructor(
    private readonly spillFile: string,
    private readonly maxSlots = MAX_SLOTS_IN_MEMORY,
  ) {}

  /** @see OccurrenceCounting.next. @throws when the spill file cannot be written or read. */
  next(contentKey: string, metric: string, date: string): number {
    if (this.last === undefined || metric !== this.lastMetric || date !== this.lastDate) {
      this.last = this.table(`${metric}\u0000${date}`);
      this.lastMetric = metric;
      this.lastDate = date;
    }
    const t = this.last;
    const before = t.slots;
    const n = t.next(contentKey);
    if (t.slots !== before) this.liveSlots += t.slots - before;
    return n;
  }

  /** The table of one window, made most recently used (read back from the spill file if written there). */
  private table(window: string): OccurrenceCounter {
    const held = this.live.get(window);
    if (held) {
      this.live.delete(window);
      this.live.set(window, held);
      return held;
    }
    const table = new OccurrenceCounter(WINDOW_SLOTS);
    const out = this.spilled.get(window);
    if (out) {
      const bytes = Buffer.allocUnsafe(out.bytes);
      fs.readSync(this.fd as number, bytes, 0, out.bytes, out.at);
      table.load(bytes);
      this.spilled.delete(window);
    }
    this.live.set(window, table);
    this.liveSlots += table.slots;
    if (this.liveSlots > this.maxSlots) this.evict(table);
    return table;
  }

  /** Writes the least recently used tables (never `keep`) to the spill file while memory is over the limit. */
  private evict(keep: OccurrenceCounter): void {
    for (const [window, t] of this.live) {
      if (this.liveSlots <= this.maxSlots) break;
      if (t === keep) continue;
      const bytes = t.dump();
      this.fd ??= fs.openSync(this.spillFile, 'w+', 0o600);
      fs.writeSync(this.fd, bytes, 0, bytes.length, this.spillEnd);
      this.spilled.set(window, { at: this.spillEnd, bytes: bytes.length });
      this.spillEnd += bytes.length;
      this.live.delete(window);
      this.liveSlots -= t.slots;
    }
  }

  /** Removes the spill file and forgets every count. */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    fs.rmSync(this.spillFile, { force: true });
    this.live.clear();
    this.spilled.clear();
    this.liveSlots = 0;
    this.last = undefined;
  }
}
