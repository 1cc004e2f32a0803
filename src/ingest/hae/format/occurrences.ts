/**
 * How many times each identical sample was read so far in one file or payload, the number a
 * sample's `seq` is (docs/HEALTH-AUTO-EXPORT.md "Same-instant samples").
 */

/** Slots of a new table (a power of two). */
const INITIAL_SLOTS = 1024;

/**
 * What extraction asks of a counter: how many times `contentKey` was read before (0 the first
 * time), recording this one. `metric` and `date` (local `YYYY-MM-DD`) are the sample's; the
 * content key already covers them (its instant as written holds the date), so a counter may keep
 * its counts per (metric, date) without changing any answer.
 */
export interface OccurrenceCounting {
  next(contentKey: string, metric: string, date: string): number;
}

/** Bytes per entry of OccurrenceCounter.dump: 8 (hash high bits) + 4 (low bits) + 4 (count). */
export const DUMP_ENTRY_BYTES = 16;

/**
 * Counts occurrences of sample contents, keyed by the content hash of (metric, instant as written,
 * source, values without `seq`) in hex (`dedupKeyOf` with span `sample`). The count only depends
 * on how many identical samples came before, never on the order of the others or on where a file
 * is cut into batches, so the n-th copy of a sample gets the same `seq` in every file that holds
 * it n or more times. An export of millions of records has millions of contents, so the table
 * lives in typed arrays (open addressing, linear probing, at most 70 % full) outside the JS heap:
 * 84 bits of the hash and a count, 16 bytes per slot.
 */
export class OccurrenceCounter implements OccurrenceCounting {
  /** 52 bits of the hash + 1 per slot; 0 = empty. */
  private highs: Float64Array;
  private lows: Uint32Array;
  private counts: Uint32Array;
  private used = 0;

  /** @param initialSlots a power of two: the table's first size (it doubles when 70 % full). */
  constructor(private readonly initialSlots = INITIAL_SLOTS) {
    this.highs = new Float64Array(initialSlots);
    this.lows = new Uint32Array(initialSlots);
    this.counts = new Uint32Array(initialSlots);
  }

  /** Slots the table holds now (16 bytes each). */
  get slots(): number {
    return this.highs.length;
  }

  /** Every content counted and its count, as bytes (DUMP_ENTRY_BYTES each) that load() reads back. */
  dump(): Buffer {
    const out = Buffer.allocUnsafe(this.used * DUMP_ENTRY_BYTES);
    let at = 0;
    for (let j = 0; j < this.highs.length; j++) {
      if (this.highs[j] === 0) continue;
      out.writeDoubleLE(this.highs[j], at);
      out.writeUInt32LE(this.lows[j], at + 8);
      out.writeUInt32LE(this.counts[j], at + 12);
      at += DUMP_ENTRY_BYTES;
    }
    return out;
  }

  /** Adds the counts of a dump() (of contents this table does not hold yet). */
  load(bytes: Buffer): void {
    for (let at = 0; at + DUMP_ENTRY_BYTES <= bytes.length; at += DUMP_ENTRY_BYTES) {
      this.put(bytes.readDoubleLE(at), bytes.readUInt32LE(at + 8), bytes.readUInt32LE(at + 12));
    }
  }

  /**
   * How many times this content was seen before (0 the first time); records this one.
   * @param contentKey at least 21 hex characters of a well-mixed hash.
   */
  next(contentKey: string): number {
    const low = Number.parseInt(contentKey.slice(0, 8), 16) >>> 0;
    const high = Number.parseInt(contentKey.slice(8, 21), 16) + 1;
    const mask = this.highs.length - 1;
    let i = low & mask;
    for (;;) {
      const here = this.highs[i];
      if (here === 0) break;
      if (here === high && this.lows[i] === low) return this.counts[i]++;
      i = (i + 1) & mask;
    }
    this.highs[i] = high;
    this.lows[i] = low;
    this.counts[i] = 1;
    this.used++;
    if (this.used * 10 > this.highs.length * 7) this.grow();
    return 0;
  }

  private put(high: number, low: number, count: number): void {
    const mask = this.highs.length - 1;
    let i = low & mask;
    while (this.highs[i] !== 0) i = (i + 1) & mask;
    this.highs[i] = high;
    this.lows[i] = low;
    this.counts[i] = count;
    this.used++;
    if (this.used * 10 > this.highs.length * 7) this.grow();
  }

  /** Forgets everything (and gives the table's memory back). */
  clear(): void {
    this.highs = new Float64Array(this.initialSlots);
    this.lows = new Uint32Array(this.initialSlots);
    this.counts = new Uint32Array(this.initialSlots);
    this.used = 0;
  }

  private grow(): void {
    const { highs, lows, counts } = this;
    const size = highs.length * 2;
    this.highs = new Float64Array(size);
    this.lows = new Uint32Array(size);
    this.counts = new Uint32Array(size);
    const mask = size - 1;
    for (let j = 0; j < highs.length; j++) {
      if (highs[j] === 0) continue;
      let i = lows[j] & mask;
      while (this.highs[i] !== 0) i = (i + 1) & mask;
      this.highs[i] = highs[j];
      this.lows[i] = lows[j];
      this.counts[i] = counts[j];
    }
  }
}
