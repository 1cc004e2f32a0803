/**
 * Health Auto Export ingestion for one instance: the samples store, the token, the folders
 * (`$HEALTH_HOME/ingest/{incoming,quarantine,uploads}`) and one push's run from samples to card
 * rows: samples stored once → subscribed cards recomputed for the
 * affected dates → push recorded → metrics seen recorded for the discoveries.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { CardContext } from '../../cards/card-context.js';
import type { CardEvent } from '../../cards/card-loader.js';
import type { HomeLayout } from '../../home/home-layout.js';
import { projectRoot } from '../../home/project-root.js';
import { inChangeSet } from '../../store/change-scope.js';
import type { Db } from '../../store/database.js';
import { removeLeftOverSpool } from '../spool-files.js';
import { noteMisfits } from './card-fit.js';
import {
  fillNewIngestCard,
  fillSubscribers,
  type PreparedRows,
  prepareRows,
  type RowsMadeAhead,
  restorableDays,
  type SubscriberResult,
  type Subscription,
  subscriptions,
} from './cards.js';
import { addRunDays, dayRuns } from './day-runs.js';
import {
  HAE_INSERT_BATCH,
  HAE_MAX_WARNINGS,
  HAE_MEMO_KEEP_DAYS,
  HAE_PUSHES_KEEP,
  type HaeEnv,
} from './env.js';
import { SubscriptionFollower } from './follow.js';
import { type HaeCategory, resolveMetric } from './format/catalogue.js';
import { MAX_UNKNOWN_DISCOVERIES } from './format/limits.js';
import type { MetricBlock, NormalisedPayload } from './format/payload.js';
import type { Sample } from './format/sample.js';
import { type ExtractResult, extractSamples } from './format/samples.js';
import { groupingKey, type TimeGrouping } from './format/time-grouping.js';
import { recomputePendingRows } from './recompute.js';
import { RowsAhead } from './rows-ahead.js';
import { type BlockMemo, HaeSampleStore } from './sample-store.js';
import { HaeTokenStore } from './token.js';
import { type RefusedPush, RefusedPushes } from './webhook/refused-pushes.js';

let fingerprint: string | undefined;

/**
 * The folder of the extraction's files: format/ beside this module (src/ in the tests, dist/src/
 * built). The production bundle (dist/server) runs this code from a chunk with no format/ beside
 * it; the files it was bundled from are tsc's in dist/src, so those are hashed, and the
 * fingerprint is the one the same code has when run file by file.
 */
function extractionDir(): string {
  const beside = fileURLToPath(new URL('./format/', import.meta.url));
  if (fs.existsSync(beside)) return beside;
  return path.join(projectRoot(), 'dist', 'src', 'ingest', 'hae', 'format');
}

/**
 * A hash of the extraction code (every source file of src/ingest/hae/format/, tests excepted), part of
 * every block memo's key: when extraction changes, no memo made by the old code matches, so
 * re-sent blocks are extracted again by the new code.
 */
export function extractionFingerprint(): string {
  if (fingerprint) return fingerprint;
  const dir = extractionDir();
  const h = createHash('sha256');
  for (const name of fs.readdirSync(dir).sort()) {
    if (!/\.(js|ts)$/.test(name) || /\.test\./.test(name) || name.endsWith('.d.ts')) continue;
    h.update(name)
      .update('\u0000')
      .update(fs.readFileSync(path.join(dir, name)))
      .update('\u0000');
  }
  fingerprint = h.digest('hex');
  return fingerprint;
}

/**
 * The memo key of one metric block or workouts section: code fingerprint, the person's zone (it
 * dates instants written in UTC), the automation's time grouping (time-grouping.ts) and its content.
 */
function memoKey(kind: string, content: unknown, zone: string | undefined, grouping?: TimeGrouping): Buffer {
  // the same bytes as hashing the texts joined, without copying the block's text again
  return createHash('sha256')
    .update(extractionFingerprint())
    .update(zoneKey(zone) + groupingKey(grouping))
    .update(kind)
    .update(JSON.stringify(content))
    .digest()
    .subarray(0, 16);
}

/** The zone as part of a memo key: its name and a separator (nothing for the server's zone). */
function zoneKey(zone: string | undefined): string {
  return zone === undefined ? '' : `${zone}\u0000`;
}

/**
 * The memo key of a whole webhook body: code fingerprint, the person's zone (`zone`), the
 * automation's time grouping (`grouping`, time-grouping.ts) and its bytes. A body sent again byte for byte (the phone retrying, the same automation run twice) is
 * then accounted for from its memo without being parsed (`PushRun.replayAndFinish`). `body`: the
 * bytes, or their chunks in order.
 */
export function bodyMemoKey(
  body: Uint8Array | readonly Uint8Array[],
  zone?: string,
  grouping?: TimeGrouping,
): Buffer {
  const h = createHash('sha256')
    .update(extractionFingerprint())
    .update(zoneKey(zone) + groupingKey(grouping))
    .update('body\u0000');
  // a body still in the chunks it arrived in: the same key as those bytes joined
  if (body instanceof Uint8Array) h.update(body);
  else for (const chunk of body) h.update(chunk);
  return h.digest().subarray(0, 16);
}

/**
 * The metrics of `samples`, each once, in order of first appearance (what
 * `[...new Set(samples.map((s) => s.metric))]` gives, without a Set lookup per sample: a block's
 * samples share their metric).
 */
function metricsOf(samples: readonly Sample[]): string[] {
  const seen = new Set<string>();
  let last: string | undefined;
  for (const s of samples) {
    if (s.metric === last) continue;
    last = s.metric;
    seen.add(last);
  }
  return [...seen];
}

/**
 * bodyMemoKey of a body spooled to `file`, read in 1 MB pieces with the event loop free between
 * them: the same key as the same bytes held in memory.
 */
export async function fileMemoKey(file: string, zone?: string, grouping?: TimeGrouping): Promise<Buffer> {
  const h = createHash('sha256')
    .update(extractionFingerprint())
    .update(zoneKey(zone) + groupingKey(grouping))
    .update('body\u0000');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest().subarray(0, 16);
}

/** Logger shape (pino's and the instance's). */
export interface IngestLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
}

/** The summary of one push, kept in `hae_pushes.summary` and shown as `lastPush`. */
export interface PushSummary {
  receivedAt: string;
  /** `hae` (webhook) or `apple-health`. */
  origin: string;
  /** Body size, bytes. */
  payloadBytes: number;
  /** Samples read from the body. */
  samples: number;
  /** Of those, samples not stored before. */
  newSamples: number;
  /** Points that could not be read. */
  skipped: number;
  subscribers: SubscriberResult[];
  /** Metrics of this push with samples that no card subscribes to (catalogue keys, or names as sent). */
  availableUnsubscribed: string[];
  /** At most HAE_MAX_WARNINGS lines (the last one says how many more there were). */
  warnings: string[];
}

/** One discovered metric (docs/API.md discoveries). */
export interface Discovery {
  metric: string;
  firstSeenAt: string;
}

/** `GET /api/health-auto-export/discoveries`. */
export interface Discoveries {
  undismissed: { supported: Partial<Record<HaeCategory, Discovery[]>>; unsupported: Discovery[] };
  dismissed: (Discovery & { dismissedAt: string; supported: boolean })[];
}

/**
 * What a push run has counted so far, as plain data: a run that stored its samples on another
 * connection (the Apple Health import's worker thread) hands it over to the run that finishes
 * the push (`HaeIngest.resumePush`).
 */
export interface PushRunState {
  receivedAt: string;
  /** The push's row id, when a sample was stored (the row is made on first use). */
  pushId: number | undefined;
  received: number;
  inserted: number;
  skipped: number;
  /** Per metric, the local dates that got a new sample. */
  affected: Map<string, Set<string>>;
  /** Per metric, the dates of every sample the push offered, new or stored before (restorableDays). */
  offered: Map<string, Set<string>>;
  listed: Set<string>;
  withSamples: Set<string>;
  warnings: string[];
  moreWarnings: number;
}

/** A card's rows made ahead of finishing a push, for the catalogue metric `metric`. */
export type PreparedFill = PreparedRows & { metric: string };

/** What a push run needs to store samples; finishing needs the cards too (a HaeIngest). */
export interface PushHost {
  samples: HaeSampleStore;
  cards?: CardContext;
  /**
   * Hears that the run opened its push row: its id and the largest sample id before it (so a
   * thread that cannot finish the push can tell the one that can, should it fail or die).
   */
  onOpened?: (pushId: number, afterId: number) => void;
}

/** The `origin` of a push that is an Apple Health import (a phone push is `hae`). */
export const APPLE_HEALTH_ORIGIN = 'apple-health';

/** Adds the date of every sample to its metric's dates (a block's samples share their metric). */
function addDatesOf(dates: Map<string, Set<string>>, samples: readonly Sample[]): void {
  let metric: string | undefined;
  let set: Set<string> | undefined;
  for (const s of samples) {
    if (s.metric !== metric) {
      metric = s.metric;
      set = dates.get(metric);
      if (!set) {
        set = new Set();
        dates.set(metric, set);
      }
    }
    set?.add(s.date);
  }
}

/** The days of `samples` per metric, as a memo keeps them (runs of days: day-runs.ts). */
function memoDays(samples: readonly Sample[]): Record<string, string[]> {
  const dates = new Map<string, Set<string>>();
  addDatesOf(dates, samples);
  return Object.fromEntries([...dates].map(([m, d]) => [m, dayRuns(d)]));
}

/** One push in progress: add samples as they are read, then finish() once. */
export class PushRun {
  readonly receivedAt: string;
  private pushId: number | undefined;
  private received = 0;
  private inserted = 0;
  private skipped = 0;
  private affected = new Map<string, Set<string>>();
  private offered = new Map<string, Set<string>>();
  /** Per metric, the runs of days of the parts accounted for from their memos (day-runs.ts). */
  private memoRuns = new Map<string, string[]>();
  /** Sample metrics listed by the body (also blocks with `"data": []`). */
  private listed = new Set<string>();
  /** Sample metrics with at least one sample in the body. */
  private withSamples = new Set<string>();
  private warnings: string[] = [];
  private moreWarnings = 0;
  private finished = false;
  /** The largest sample id before this run stored its first sample (discard removes the ones above). */
  private idFloor: number | undefined;
  /** Whether another push was under way when this one stored its first sample. */
  private othersOpen = false;
  /** Card rows made as the samples are stored (a body held in memory), so finishing need not read them back. */
  private ahead: RowsAhead | undefined;
  /** The time grouping of the automation that sent the push (its automation-aggregation header). */
  grouping: TimeGrouping | undefined;

  constructor(
    private readonly svc: PushHost,
    readonly origin: string,
    private readonly bytes: number,
    state?: PushRunState,
  ) {
    this.receivedAt = state?.receivedAt ?? new Date().toISOString();
    if (state) {
      this.pushId = state.pushId;
      this.received = state.received;
      this.inserted = state.inserted;
      this.skipped = state.skipped;
      this.affected = state.affected;
      this.offered = state.offered;
      this.listed = state.listed;
      this.withSamples = state.withSamples;
      this.warnings = state.warnings;
      this.moreWarnings = state.moreWarnings;
    }
  }

  /** The push row and the largest sample id before it, once the run stored a sample. */
  get opened(): { pushId: number; afterId: number } | undefined {
    return this.pushId === undefined ? undefined : { pushId: this.pushId, afterId: this.idFloor ?? 0 };
  }

  /** The counts so far, to be handed to another run (structured-cloneable). */
  state(): PushRunState {
    return {
      receivedAt: this.receivedAt,
      pushId: this.pushId,
      received: this.received,
      inserted: this.inserted,
      skipped: this.skipped,
      affected: this.affected,
      offered: this.offered,
      listed: this.listed,
      withSamples: this.withSamples,
      warnings: this.warnings,
      moreWarnings: this.moreWarnings,
    };
  }

  /** The person's IANA zone (undefined: the server's), for instants written in UTC. */
  get zone(): string | undefined {
    return this.svc.samples.timeZone();
  }

  /** Samples stored so far that were new to the store. */
  get newSamples(): number {
    return this.inserted;
  }

  /** The cards of the host: only a run started by a HaeIngest can finish. */
  private get cards(): CardContext {
    if (!this.svc.cards) throw new Error('this push run only stores samples; finish it from a HaeIngest');
    return this.svc.cards;
  }

  /**
   * The push's row id, the row made on first use: inside the first transaction that stores
   * samples (or the one that finishes the push), so opening it costs no commit of its own.
   */
  get id(): number {
    if (this.pushId === undefined) {
      this.pushId = this.svc.samples.beginPush(this.origin, this.receivedAt, this.bytes);
      this.svc.onOpened?.(this.pushId, this.idFloor ?? this.svc.samples.lastId());
    }
    return this.pushId;
  }

  /**
   * From now on the subscribed cards' rows are made from the samples as they are stored
   * (rows-ahead.ts), so finishing reads back only the dates this run did not store whole (and any
   * date another push added samples to meanwhile). The Apple Health import makes its own, on its
   * thread.
   */
  makeRowsAhead(): void {
    this.ahead = new RowsAhead(
      subscriptions(this.cards).map((s) => s.entry),
      this.zone,
    );
  }

  /** Adds a warning line (kept up to HAE_MAX_WARNINGS). */
  warn(line: string): void {
    if (this.warnings.length < HAE_MAX_WARNINGS) this.warnings.push(line);
    else this.moreWarnings++;
  }

  /**
   * Counts what an extraction read (skipped points, warnings, the metrics listed, the metrics
   * with samples) without storing anything: for samples stored later with storeInBatches.
   */
  note(
    extract: Pick<ExtractResult, 'skipped' | 'warnings' | 'knownMetrics' | 'unknownMetrics'>,
    samples: readonly Sample[],
  ): void {
    this.skipped += extract.skipped;
    for (const w of extract.warnings) this.warn(w);
    for (const m of extract.knownMetrics) this.listed.add(m);
    for (const m of extract.unknownMetrics) this.listed.add(m);
    for (const m of metricsOf(samples)) this.withSamples.add(m);
  }

  private store(samples: readonly Sample[], memo?: { hash: Buffer; at: string; summary: BlockMemo }): void {
    // a discarded run stores nothing more (a batch still under way when its push failed)
    if (this.finished) throw new Error('push already finished');
    if (this.idFloor === undefined) {
      this.idFloor = this.svc.samples.lastId();
      this.othersOpen = this.svc.samples.unfinishedPushes().some((id) => id !== this.pushId);
    }
    // the memo keeps the days it offered: a re-send answered from it still puts them back
    if (memo) memo.summary.dates = memoDays(samples);
    const r = this.svc.samples.insert(samples, this.id, memo);
    this.ahead?.stored(samples, r.inserted === samples.length);
    this.received += r.offered;
    this.inserted += r.inserted;
    for (const [metric, dates] of r.affected) {
      const all = this.affected.get(metric);
      if (all) for (const d of dates) all.add(d);
      else this.affected.set(metric, dates);
    }
    // the same data sent again after its change was undone: see restorableDays
    addDatesOf(this.offered, samples);
  }

  /**
   * A whole normalised payload, one metric block at a time (then the workouts): a block whose
   * memo says its samples are all stored already (a re-send) is accounted for without being
   * extracted again; any other block is extracted and stored in one transaction with its memo.
   * The stored samples are the same either way: extraction is pure and per block.
   */
  addPayload(payload: NormalisedPayload): void {
    for (const w of payload.warnings) this.warn(w);
    // one commit for the whole body (each commit is an fsync: synchronous=FULL)
    this.svc.samples.transaction(() => {
      for (const block of payload.metrics)
        this.addPart('m', block, { metrics: [block], workouts: [], warnings: [] });
      if (payload.workouts.length) {
        this.addPart('w', payload.workouts, { metrics: [], workouts: payload.workouts, warnings: [] });
      }
    });
  }

  private addPart(kind: string, content: MetricBlock | unknown[], part: NormalisedPayload): void {
    const key = memoKey(kind, content, this.zone, this.grouping);
    const memo = this.svc.samples.memo(key, this.receivedAt);
    // a memo made before memos kept their dates cannot say which days to put back: read again
    if (memo?.dates) {
      this.account(memo);
      return;
    }
    const ex = extractSamples(part, undefined, undefined, this.zone, this.grouping);
    this.note(ex, ex.samples);
    const summary: BlockMemo = {
      samples: ex.samples.length,
      skipped: ex.skipped,
      warnings: ex.warnings,
      listed: [...ex.knownMetrics, ...ex.unknownMetrics],
      withSamples: metricsOf(ex.samples),
    };
    this.store(ex.samples, { hash: key, at: this.receivedAt, summary });
  }

  /** Counts what a memo says its part (a block, or a whole body) read, as if it was read again. */
  private account(memo: BlockMemo): void {
    this.skipped += memo.skipped;
    for (const w of memo.warnings) this.warn(w);
    this.moreWarnings += memo.moreWarnings ?? 0;
    for (const m of memo.listed) this.listed.add(m);
    for (const m of memo.withSamples) this.withSamples.add(m);
    this.received += memo.samples;
    // kept as runs: expanded at the finish only for the metrics a card reads
    for (const [metric, runs] of Object.entries(memo.dates ?? {})) {
      const all = this.memoRuns.get(metric);
      if (all) all.push(...runs);
      else this.memoRuns.set(metric, [...runs]);
    }
  }

  /** Notes and stores one extraction, in transactions of `batch` samples with a turn of the event loop between them. */
  async addInBatches(extract: ExtractResult, batch = HAE_INSERT_BATCH): Promise<void> {
    this.note(extract, extract.samples);
    await this.storeInBatches(extract.samples, batch);
  }

  /** Stores samples (already noted) in transactions of `batch` (HAE_INSERT_BATCH), yielding to the event loop between them. */
  async storeInBatches(samples: readonly Sample[], batch = HAE_INSERT_BATCH): Promise<void> {
    for (let i = 0; i < samples.length; i += batch) {
      this.store(i === 0 && samples.length <= batch ? samples : samples.slice(i, i + batch));
      if (i + batch < samples.length) await yieldToLoop();
    }
  }

  /**
   * Undoes a run that failed part way: the samples it stored (committed batch by batch) and its
   * push row are removed in one transaction, so the push leaves nothing, and the same body sent
   * again is stored and fills its cards as if it came for the first time. When another push was
   * under way meanwhile (it began before this one stored its first sample and had not finished,
   * or it began later), that push may have found some of these samples stored and counted on
   * them: then they stay, and their metrics are listed for recomputing the cards' rows
   * (HaeSampleStore.settlePush; HaeIngest.recomputePending does it). The run cannot be finished
   * afterwards.
   * @returns the samples removed, or kept.
   * @throws the database's error when the removal fails (a full disk): the samples then stay.
   */
  discard(): { removed: number; kept: number } {
    if (this.finished) throw new Error('push already finished');
    this.finished = true;
    if (this.pushId === undefined) return { removed: 0, kept: 0 };
    if (this.othersOpen || this.svc.samples.pushAfter(this.pushId)) {
      this.svc.samples.settlePush(this.pushId, this.idFloor ?? 0);
      return { removed: 0, kept: this.inserted };
    }
    return { removed: this.svc.samples.dropPush(this.pushId, this.idFloor ?? 0), kept: 0 };
  }

  /**
   * Fills the subscribed cards for the affected dates, records the metrics seen and the push, in
   * one transaction; the cards' `data-changed` events go out after the commit.
   * @returns the push summary plus `ingested` `{cardId: rowsWritten}` for the webhook answer.
   */
  finish(): PushSummary & { ingested: Record<string, number> } {
    const events: CardEvent[] = [];
    const summary = this.svc.samples.transaction(() => this.finishInTransaction(events));
    for (const e of events) this.cards.emit(e);
    return withIngested(summary);
  }

  /**
   * finish for a push too large to fill its cards in one go (an Apple Health history): the rows
   * of every subscribed card are computed first, a group of dates at a time with a turn of the
   * event loop between groups, then written by finish in its one transaction (recomputed there
   * for a card whose samples changed meanwhile). `ready`: rows already made (prepareFills on
   * another thread), used for the cards still subscribed to the metric they were made for.
   * `bodyKey`: the memo key of the whole body this run read (bodyMemoKey), recorded with the push.
   */
  async finishInSteps(
    ready?: ReadonlyMap<string, PreparedFill>,
    bodyKey?: Buffer,
  ): Promise<PushSummary & { ingested: Record<string, number> }> {
    const subs = subscriptions(this.cards);
    // rows made elsewhere (the import's worker) count only for a card still reading that metric
    const todo = subs.filter((s) => ready?.get(s.cardId)?.metric !== s.entry.key);
    this.ahead?.finish();
    const prepared = new Map<string, PreparedRows>(await this.prepareFills(todo, this.ahead));
    for (const s of subs) {
      const r = ready?.get(s.cardId);
      if (r && r.metric === s.entry.key) prepared.set(s.cardId, r);
    }
    const events: CardEvent[] = [];
    const summary = this.svc.samples.transaction(() => {
      // a whole body read (bodyKey): its memo commits with the push, after all its samples
      if (bodyKey) this.svc.samples.putMemo(bodyKey, this.receivedAt, this.readSoFar());
      return this.finishInTransaction(events, prepared);
    });
    for (const e of events) this.cards.emit(e);
    return withIngested(summary);
  }

  /**
   * The rows of each subscription the push affected, computed a group of dates at a time with a
   * turn of the event loop between groups (finishInSteps writes them, or recomputes a card whose
   * samples changed meanwhile). Needs only the samples: a run storing on another thread's
   * connection can make them there. `made`: rows made ahead for some dates (prepareRows).
   * @returns per card id, its rows and the metric they were made for.
   */
  async prepareFills(
    subs: readonly Subscription[],
    made?: RowsMadeAhead,
  ): Promise<Map<string, PreparedFill>> {
    const out = new Map<string, PreparedFill>();
    for (const sub of subs) {
      const dates = this.affected.get(sub.entry.reads);
      if (!this.listed.has(sub.entry.reads) || !dates?.size) continue;
      const rows = await prepareRows(this.svc.samples, sub.entry, dates, made);
      out.set(sub.cardId, { ...rows, metric: sub.entry.key });
    }
    return out;
  }

  /**
   * addPayload and finish in ONE transaction: a body held in memory costs one commit (one fsync,
   * synchronous=FULL) instead of two, and its samples, rows and push record commit together.
   */
  addPayloadAndFinish(
    payload: NormalisedPayload,
    bodyKey?: Buffer,
  ): PushSummary & { ingested: Record<string, number> } {
    const events: CardEvent[] = [];
    this.makeRowsAhead();
    const summary = this.svc.samples.transaction(() => {
      this.addPayload(payload);
      // the body's memo commits with its samples, or not at all; a fresh run counted this body only
      if (bodyKey) this.svc.samples.putMemo(bodyKey, this.receivedAt, this.readSoFar());
      return this.finishInTransaction(events);
    });
    for (const e of events) this.cards.emit(e);
    return withIngested(summary);
  }

  /**
   * For a body whose memo (bodyMemoKey) exists: its samples are all stored, so it is counted from
   * the memo and the push finished, in one transaction, without parsing it.
   * @returns what finish returns, or undefined (nothing written) when the body is new.
   */
  replayAndFinish(bodyKey: Buffer): (PushSummary & { ingested: Record<string, number> }) | undefined {
    const events: CardEvent[] = [];
    const summary = this.svc.samples.transaction(() => {
      const memo = this.svc.samples.memo(bodyKey, this.receivedAt);
      // (a memo without dates was made by older code: the body is read again, once)
      if (!memo?.dates) return undefined;
      this.account(memo);
      return this.finishInTransaction(events);
    });
    if (!summary) return undefined;
    for (const e of events) this.cards.emit(e);
    return withIngested(summary);
  }

  /** What this run read so far, as a memo (samples, skipped points, warnings, metrics). */
  private readSoFar(): BlockMemo {
    return {
      samples: this.received,
      skipped: this.skipped,
      warnings: [...this.warnings],
      moreWarnings: this.moreWarnings,
      listed: [...this.listed],
      withSamples: [...this.withSamples],
      dates: Object.fromEntries(
        [...new Set([...this.offered.keys(), ...this.memoRuns.keys()])].map((m) => [
          m,
          dayRuns(this.offeredDays(m)),
        ]),
      ),
    };
  }

  /** The days of `metric` this run offered: the samples it stored and the parts its memos accounted for. */
  private offeredDays(metric: string): Set<string> {
    const days = new Set(this.offered.get(metric));
    const runs = this.memoRuns.get(metric);
    if (runs) addRunDays(days, runs);
    return days;
  }

  /** The work of finish, inside the caller's transaction; card events are collected into `events`. */
  private finishInTransaction(
    events: CardEvent[],
    prepared?: ReadonlyMap<string, PreparedRows>,
  ): PushSummary {
    if (this.finished) throw new Error('push already finished');
    this.finished = true;
    const cards = {
      registry: this.cards.registry,
      store: this.cards.store,
      emit: (e: CardEvent) => events.push(e),
    };
    const reads = new Set(subscriptions(this.cards).map((s) => s.entry.reads));
    const offered = new Map([...reads].map((m) => [m, this.offeredDays(m)]));
    const restore = restorableDays(cards, offered, this.affected);
    // one push (or one import) is one change set, whatever request or job runs it
    this.ahead?.finish();
    const subscribers = inChangeSet({ actor: this.origin === 'hae' ? 'hae' : 'import', fresh: true }, () => {
      const filled = fillSubscribers(
        cards,
        this.svc.samples,
        this.affected,
        this.listed,
        prepared,
        restore,
        this.ahead,
      );
      // undoing that set puts back the samples this push restated (restated-samples.ts)
      const setId = this.cards.store.changes.openSetId();
      if (setId !== undefined) this.svc.samples.restated.linkChangeSet(this.id, setId);
      return filled;
    });
    this.ahead = undefined;
    for (const s of subscribers) {
      if (s.note) this.warn(`card ${s.id}: ${s.note}`);
      if (s.handReplaced) this.warn(handReplacedWarning(s.id, s.handReplaced));
    }
    noteMisfits(cards, subscribers, (line) => this.warn(line));
    const subscribed = new Set(subscriptions(this.cards).map((s) => s.entry.reads));
    const notKept = new Set(
      this.svc.samples.markSeen(this.withSamples, this.receivedAt, MAX_UNKNOWN_DISCOVERIES),
    );
    if (notKept.size) {
      this.warn(
        `${notKept.size} metric name(s) the catalogue does not know not kept as discoveries (at most ${MAX_UNKNOWN_DISCOVERIES} are kept)`,
      );
    }
    const availableUnsubscribed = [...this.withSamples]
      .filter((m) => !subscribed.has(m) && !notKept.has(m))
      .sort();
    const warnings = this.moreWarnings
      ? [...this.warnings, `... and ${this.moreWarnings} more warning(s)`]
      : [...this.warnings];
    const result: PushSummary = {
      receivedAt: this.receivedAt,
      origin: this.origin,
      payloadBytes: this.bytes,
      samples: this.received,
      newSamples: this.inserted,
      skipped: this.skipped,
      subscribers,
      availableUnsubscribed,
      warnings,
    };
    this.svc.samples.pruneMemos(new Date(Date.now() - HAE_MEMO_KEEP_DAYS * 86_400_000).toISOString());
    this.svc.samples.finishPush(
      this.id,
      { bytes: this.bytes, samples: this.received, newSamples: this.inserted, skipped: this.skipped },
      result as unknown as Record<string, unknown>,
      HAE_PUSHES_KEEP,
    );
    return result;
  }
}

/** Dates named in a warning at most; more are counted. */
const HAND_DATES_NAMED = 5;

/**
 * The warning for a card keeping one reading a day whose rows entered by hand the phone's rows
 * replaced on `dates` (phone-rows.ts): which days, and that History can undo it.
 */
function handReplacedWarning(cardId: string, dates: readonly string[]): string {
  const named = dates.slice(0, HAND_DATES_NAMED).join(', ');
  const more = dates.length > HAND_DATES_NAMED ? ` and ${dates.length - HAND_DATES_NAMED} more` : '';
  return `card ${cardId}: the phone's reading replaced an entry it had not written on ${dates.length} day(s) (${named}${more}), as the card keeps one reading a day; History can undo it`;
}

function withIngested(summary: PushSummary): PushSummary & { ingested: Record<string, number> } {
  return { ...summary, ingested: Object.fromEntries(summary.subscribers.map((s) => [s.id, s.rowsWritten])) };
}

/** Where card events come from (the instance's emitter). */
export interface CardEventSource {
  on(event: 'card', listener: (e: CardEvent) => void): unknown;
  off(event: 'card', listener: (e: CardEvent) => void): unknown;
}

/** Options of HaeIngest. */
export interface HaeIngestOptions {
  db: Db;
  layout: HomeLayout;
  cards: CardContext;
  env: HaeEnv;
  log?: IngestLogger;
  /** The person's IANA zone, undefined for the server's (format/instant-zone.ts). */
  timeZone?: () => string | undefined;
}

const silent: IngestLogger = { info: () => {}, warn: () => {} };

/** Health Auto Export / Apple Health ingestion of one instance. */
export class HaeIngest {
  readonly samples: HaeSampleStore;
  readonly tokens: HaeTokenStore;
  readonly cards: CardContext;
  /** `$HEALTH_HOME/ingest` and its folders: spooled bodies, quarantined bodies, XML uploads. */
  readonly dirs: { root: string; incoming: string; quarantine: string; uploads: string };
  /** Largest webhook body, bytes (KLEBB_HAE_MAX_BYTES). */
  maxBytes: number;
  /** Largest export.xml upload, bytes (KLEBB_APPLE_HEALTH_MAX_BYTES). */
  appleHealthMaxBytes: number;
  readonly log: IngestLogger;
  /** The newest webhook push refused or answered `{ok: false}` (in memory only). */
  readonly refused = new RefusedPushes();
  /** Failed pushes whose samples still wait to reach their cards: push id → sample id before it. */
  private readonly unsettled = new Map<number, number>();

  /**
   * Opens ingestion on an open instance: creates the folders, removes spooled bodies a crash left
   * behind, migrates the legacy token once, and connects the samples store to card creation.
   */
  constructor(opts: HaeIngestOptions) {
    this.log = opts.log ?? silent;
    this.cards = opts.cards;
    this.samples = new HaeSampleStore(opts.db, opts.timeZone);
    this.tokens = new HaeTokenStore(path.join(opts.layout.home, 'config.json'));
    const root = path.join(opts.layout.home, 'ingest');
    this.dirs = {
      root,
      incoming: path.join(root, 'incoming'),
      quarantine: path.join(root, 'quarantine'),
      uploads: path.join(root, 'uploads'),
    };
    for (const d of Object.values(this.dirs)) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    // only the files of dead runs: the import script may open this home while the server runs
    for (const d of [this.dirs.incoming, this.dirs.uploads]) removeLeftOverSpool(d);
    this.maxBytes = opts.env.maxBytes;
    this.appleHealthMaxBytes = opts.env.appleHealthMaxBytes;
    try {
      if (this.tokens.migrateLegacy(opts.env.legacyToken)) {
        this.log.info(
          {},
          'HEALTH_AUTO_EXPORT_TOKEN moved into config.json (hae.token); the variable is ignored from now on',
        );
      }
    } catch (err) {
      this.log.warn(
        { err: (err as Error).message },
        'could not migrate HEALTH_AUTO_EXPORT_TOKEN into config.json',
      );
    }
    // a card created with an HAE subscription is filled from the samples already stored
    opts.cards.onCreate = (id) => fillNewIngestCard(opts.cards, this.samples, id);
    // undoing a push or an import gives the samples it restated their old values
    opts.cards.onUndo = (setId) => {
      this.samples.restated.undoSet(setId);
    };
    // hashed now, at start-up, rather than on the first push (it reads the extraction sources)
    extractionFingerprint();
  }

  /**
   * Recomputes, once, the rows of cards whose metric a migration listed (recompute.ts). Call once
   * the cards are loaded. A failure is logged and tried again at the next start.
   */
  recomputePending(): void {
    for (const r of recomputePendingRows(this.cards, this.samples)) {
      if (r.note) this.log.warn({ card: r.id, metric: r.metric, note: r.note }, 'card rows not recomputed');
      else if (r.rowsWritten > 0)
        this.log.info(
          { card: r.id, metric: r.metric, rows: r.rowsWritten },
          'card rows recomputed from stored samples',
        );
    }
  }

  /**
   * Settles the pushes a crash cut short (push rows never completed: their samples stored, their
   * cards never filled): their samples stay and their metrics' card rows are recomputed
   * (recomputePending, to be called next). Call once at start-up, before any push begins.
   * @returns how many pushes were settled.
   */
  settleInterrupted(): number {
    const ids = this.samples.unfinishedPushes();
    for (const id of ids) this.samples.settlePush(id);
    if (ids.length) this.log.warn({ pushes: ids.length }, 'pushes cut short by a stop were settled');
    return ids.length;
  }

  /**
   * After a push of this process failed with its samples kept (an Apple Health import that
   * stopped part way): settles it (HaeSampleStore.settlePush) and recomputes the rows of its
   * metrics' cards at once. A failure here (the disk still full) is logged, never thrown: what
   * stays listed is recomputed at the next start.
   * `afterId`: the largest sample id before the push began.
   * @returns true when the kept samples reached their cards now; false when that waits (the
   *   database still refuses it) for the next import or push, or the next start.
   */
  settleFailedPush(pushId: number, afterId: number): boolean {
    this.unsettled.set(pushId, afterId);
    this.settleFailed();
    if (this.unsettled.has(pushId)) return false;
    try {
      return this.samples.pendingRecompute().length === 0;
    } catch {
      return false;
    }
  }

  /**
   * Settles the failed pushes not settled yet (settleFailedPush; tried again before the next
   * import): a settle that fails (the database still locked) is logged, and what it leaves is
   * done at the next start at the latest.
   */
  settleFailed(): void {
    try {
      for (const [pushId, afterId] of this.unsettled) {
        this.samples.settlePush(pushId, afterId);
        this.unsettled.delete(pushId);
      }
      // a recompute that failed too (the disk still full) is tried again here, not only at start
      if (this.samples.pendingRecompute().length > 0) this.recomputePending();
    } catch (err) {
      this.log.warn(
        { pushes: [...this.unsettled.keys()], err: (err as Error).message },
        'the samples of a failed push are kept; their cards are filled later',
      );
    }
  }

  /**
   * Follows card events from now on, so a card that gains `meta.ingest` later (PATCH, chat tool,
   * hand edit) is filled and one whose metric changes is refilled (follow.ts). Call once the
   * cards are loaded: the cards present then count as filled. A failure is logged, never thrown
   * into the edit that caused it.
   * @returns a function that stops following.
   */
  followCards(events: CardEventSource): () => void {
    const follower = new SubscriptionFollower(this.cards, this.samples);
    const listener = (e: CardEvent) => {
      try {
        const done = follower.handle(e);
        if (done && (done.result.rowsWritten > 0 || done.action !== 'fill-new')) {
          this.log.info(
            {
              card: done.result.id,
              metric: done.result.metric,
              action: done.action,
              rows: done.result.rowsWritten,
              note: done.result.note,
            },
            'HAE card filled from stored samples',
          );
        }
      } catch (err) {
        this.log.warn(
          { card: e.id, err: (err as Error).message },
          'could not fill the card from stored samples',
        );
      }
    };
    events.on('card', listener);
    return () => {
      events.off('card', listener);
    };
  }

  /**
   * Starts a push of `origin` (`hae` or `apple-health`) whose body is `bytes` long (so far);
   * `grouping`: the time grouping its automation names (time-grouping.ts).
   */
  startPush(origin: string, bytes: number, grouping?: TimeGrouping): PushRun {
    const run = new PushRun(this, origin, bytes);
    run.grouping = grouping;
    return run;
  }

  /** Takes over a push whose samples another run stored (its `state()`), to finish it here. */
  resumePush(origin: string, bytes: number, state: PushRunState): PushRun {
    return new PushRun(this, origin, bytes, state);
  }

  /**
   * The newest completed push summary that read at least one sample, else the newest completed
   * one, or null. A later push that read nothing (a body `null`, a broken export) does not hide
   * what the last good one filled: it is `lastFailedAttempt`.
   */
  lastPush(origin = 'hae'): PushSummary | null {
    const good = this.samples.lastPush(origin, { read: true }) ?? this.samples.lastPush(origin);
    return (good?.summary as PushSummary | null | undefined) ?? null;
  }

  /**
   * The newest push that failed, when it came after the last push that read something (or none
   * did): a webhook push refused or answered `{ok: false}` (RefusedPushes, kept in memory), or a
   * completed push that read nothing after a good one. Null otherwise.
   */
  lastFailedAttempt(origin = 'hae'): RefusedPush | null {
    const newest = this.samples.lastPush(origin);
    const good = this.samples.lastPush(origin, { read: true });
    const goodAt = (good?.summary as PushSummary | null | undefined)?.receivedAt ?? '';
    const refused = origin === 'hae' ? this.refused.latest : undefined;
    let failed: RefusedPush | undefined = refused && refused.receivedAt >= goodAt ? refused : undefined;
    const s = newest?.summary as PushSummary | null | undefined;
    if (
      s &&
      good &&
      newest &&
      newest.id !== good.id &&
      newest.samples === 0 &&
      s.receivedAt > (failed?.receivedAt ?? '')
    ) {
      failed = {
        receivedAt: s.receivedAt,
        status: 200,
        error: s.warnings[0] ?? 'nothing in it could be read',
        payloadBytes: s.payloadBytes,
        warnings: s.warnings,
      };
    }
    return failed ?? null;
  }

  /**
   * Metrics seen in pushes that no card subscribes to (subscribing graduates a metric out),
   * split into undismissed (catalogue metrics by category, unknown names apart) and dismissed.
   */
  discoveries(): Discoveries {
    const subscribed = new Set(subscriptions(this.cards).map((s) => s.entry.reads));
    const out: Discoveries = { undismissed: { supported: {}, unsupported: [] }, dismissed: [] };
    for (const seen of this.samples.seenMetrics()) {
      if (subscribed.has(seen.metric)) continue;
      const entry = resolveMetric(seen.metric);
      const item = { metric: seen.metric, firstSeenAt: seen.firstSeenAt };
      if (seen.dismissedAt)
        out.dismissed.push({ ...item, dismissedAt: seen.dismissedAt, supported: entry !== undefined });
      else if (!entry) out.undismissed.unsupported.push(item);
      else {
        const list = out.undismissed.supported[entry.category] ?? [];
        list.push(item);
        out.undismissed.supported[entry.category] = list;
      }
    }
    return out;
  }

  /**
   * Dismisses (`dismissed` true) or unhides a discovered metric. `metric` may be an alias.
   * @returns false when that metric was never seen in a push.
   */
  setDismissed(metric: string, dismissed: boolean): boolean {
    const key = resolveMetric(metric)?.reads ?? metric.trim().toLowerCase();
    return this.samples.setDismissed(key, dismissed ? new Date().toISOString() : null);
  }
}
