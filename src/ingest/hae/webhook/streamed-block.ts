/**
 * One metric block of a streamed body, extracted a chunk of points at a time, with exactly the
 * samples (and dedup keys) extractSamples gives for the whole block at once, so a body posted
 * streamed and the same body posted whole store the same samples:
 * - `seq` (the 2nd, 3rd ... copy of one point) is counted across the block, not per chunk;
 * - `span` `day` needs every point of the block at local midnight with no (date, source) twice:
 *   samples are held back only while that is still possible (a daily block has one point per
 *   date and source, so it stays small); the first point that rules it out releases them as
 *   `sample` and the rest of the block goes straight to the store.
 * Points that arrive before the block's `name` and `units` (iOS writes keys in random order) wait
 * in memory up to a bound, then in a spill file, and are replayed once both are known.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { resolveMetric } from '../format/catalogue.js';
import { OccurrenceCounter } from '../format/occurrences.js';
import { normalisePayload } from '../format/payload.js';
import { type Sample, type SampleSpan, SkipCounter, withSpan } from '../format/sample.js';
import { extractSamples } from '../format/samples.js';
import { type HaeTime, parseHaeTimestamp } from '../format/timestamps.js';
import type { PushRun } from '../service.js';

/** Sizes of a StreamedBlock. */
export interface StreamedBlockOptions {
  /** Points extracted together. */
  chunkPoints: number;
  /** Points kept in memory while the block's name or units are not known yet; more go to a spill file. */
  pendingInMemory: number;
  /** Path of a new spill file. */
  spillPath: () => string;
}

interface Timed {
  s: Sample;
  t: HaeTime;
}

/** One streamed metric block; feed it field(), point(), then end() once. */
/** The spill file of a block's early points; `error` once writing it failed. */
interface Spill {
  file: string;
  out: fs.WriteStream;
  count: number;
  error?: Error;
}

export class StreamedBlock {
  private name: unknown;
  private units: unknown;
  private hasName = false;
  private hasUnits = false;
  private badData: unknown;
  private hasBadData = false;
  private ready = false;
  private invalid = false;
  private pending: unknown[] = [];
  private spill: Spill | undefined;
  private chunk: unknown[] = [];
  private extracted = false;
  private sleepShape = false;
  private readonly seen = new OccurrenceCounter();
  /** Unreadable points of the whole block: one warning line per reason at its end, not per chunk. */
  private skips = new SkipCounter();
  private dailyPossible = true;
  private dailySeen = new Set<string>();
  private held: Timed[] = [];

  constructor(
    private readonly run: PushRun,
    private readonly opts: StreamedBlockOptions,
  ) {}

  /** A key of the block other than an array `data`. */
  async field(key: string, value: unknown): Promise<void> {
    if (key === 'name') {
      this.name = value;
      this.hasName = true;
    } else if (key === 'units') {
      this.units = value;
      this.hasUnits = true;
    } else if (key === 'data' && value !== null && value !== undefined) {
      this.badData = value;
      this.hasBadData = true;
    }
    if (!this.ready && this.hasName && this.hasUnits) await this.becomeReady();
  }

  /**
   * One point of the block's `data`. A promise only when there is work to wait for (a chunk to
   * store, a point to hold): the walker pauses the parser for each promise, which for every point
   * of a 200 000-point body cost more than the points themselves.
   */
  point(value: unknown): void | Promise<void> {
    if (this.invalid) return;
    if (!this.ready) return this.hold(value);
    this.chunk.push(value);
    if (this.chunk.length >= this.opts.chunkPoints) return this.extractChunk();
  }

  /** The block ended: everything left is extracted and stored. */
  async end(): Promise<void> {
    if (!this.ready) await this.becomeReady();
    if (!this.invalid && (this.chunk.length > 0 || !this.extracted)) await this.extractChunk();
    if (this.held.length) await this.release(this.dailyPossible ? 'day' : 'sample');
    for (const line of this.skips.lines()) this.run.warn(line);
    this.skips = new SkipCounter();
    this.seen.clear();
    this.dailySeen.clear();
  }

  private async hold(value: unknown): Promise<void> {
    if (this.pending.length < this.opts.pendingInMemory && !this.spill) {
      this.pending.push(value);
      return;
    }
    if (!this.spill) {
      const file = this.opts.spillPath();
      const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
      const spill: Spill = { file, out, count: 0 };
      // a disk that fills up (or refuses the file) under a large push is the push's failure,
      // answered 507 / 503 by the route: never an unhandled 'error' event that ends the server
      out.on('error', (err) => {
        spill.error ??= err;
      });
      this.spill = spill;
    }
    const spill = this.spill;
    spill.count++;
    if (!spill.error && !spill.out.write(`${JSON.stringify(value)}\n`)) {
      // a stream that fails while full never drains: its error ends the wait too
      await new Promise<void>((resolve) => {
        const done = () => {
          spill.out.off('drain', done);
          spill.out.off('error', done);
          resolve();
        };
        spill.out.once('drain', done);
        spill.out.once('error', done);
      });
    }
    if (spill.error) this.dropSpill(spill);
  }

  /** Removes a spill file whose writing failed, and throws its error (ENOSPC, EROFS, EIO). */
  private dropSpill(spill: Spill): never {
    if (this.spill === spill) this.spill = undefined;
    spill.out.destroy();
    fs.rmSync(spill.file, { force: true });
    throw spill.error;
  }

  private async becomeReady(): Promise<void> {
    this.ready = true;
    const name = typeof this.name === 'string' ? this.name.trim() : '';
    if (!name || this.hasBadData) {
      // the same warnings as the whole-body path (normalisePayload)
      const check = normalisePayload({
        metrics: [{ name: this.name, units: this.units, data: this.hasBadData ? this.badData : [] }],
      });
      for (const w of check.warnings) this.run.warn(w);
      this.invalid = true;
    }
    this.sleepShape = resolveMetric(name)?.shape === 'sleep';
    const pending = this.pending;
    this.pending = [];
    const spill = this.spill;
    this.spill = undefined;
    if (spill && !spill.error) {
      await new Promise<void>((resolve) =>
        spill.out.end((err?: Error | null) => {
          if (err) spill.error ??= err;
          resolve();
        }),
      );
    }
    if (spill?.error) this.dropSpill(spill);
    try {
      if (this.invalid) return;
      for (const p of pending) await this.point(p);
      if (spill) {
        const lines = readline.createInterface({
          input: fs.createReadStream(spill.file),
          crlfDelay: Number.POSITIVE_INFINITY,
        });
        for await (const line of lines) if (line) await this.point(JSON.parse(line));
      }
    } finally {
      if (spill) fs.rmSync(spill.file, { force: true });
    }
  }

  private async extractChunk(): Promise<void> {
    const data = this.chunk;
    this.chunk = [];
    this.extracted = true;
    const payload = normalisePayload({ metrics: [{ name: this.name, units: this.units, data }] });
    for (const w of payload.warnings) this.run.warn(w);
    // seq counted across the whole block, as extractSamples counts it within one block
    const ex = extractSamples(payload, this.seen, this.skips, this.run.zone, this.run.grouping);
    const timed: Timed[] = [];
    for (const s of ex.samples) {
      const t = parseHaeTimestamp(s.at, this.run.zone);
      if (t) timed.push({ s, t });
    }
    this.run.note(ex, ex.samples);
    if (this.sleepShape) {
      await this.store(timed, 'sample');
      return;
    }
    if (this.dailyPossible) {
      for (const { s, t } of timed) {
        const day = `${t.date}|${s.source ?? ''}`;
        if (t.time !== '00:00:00' || this.dailySeen.has(day)) {
          this.dailyPossible = false;
          break;
        }
        this.dailySeen.add(day);
      }
    }
    if (this.dailyPossible) {
      this.held.push(...timed);
      return;
    }
    this.dailySeen.clear();
    if (this.held.length) await this.release('sample');
    await this.store(timed, 'sample');
  }

  private async release(span: SampleSpan): Promise<void> {
    const held = this.held;
    this.held = [];
    await this.store(held, span);
  }

  /** Stores samples with the block's span, recomputing a dedup key only where the span changed. */
  private async store(timed: Timed[], span: SampleSpan): Promise<void> {
    const samples = timed.map(({ s, t }) => withSpan(s, t, span));
    await this.run.storeInBatches(samples);
  }
}
