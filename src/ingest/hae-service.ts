/**
 * Health Auto Export ingestion for one instance: the samples store, the token, the folders
 * (`$HEALTH_HOME/ingest/{incoming,quarantine,uploads}`) and one push's run from samples to card
 * rows (REFERENCE section 7 "Flow"): samples stored once → subscribed cards recomputed for the
 * affected dates → push recorded → metrics seen recorded for the discoveries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { CardContext } from '../cards/card-context.js';
import type { HomeLayout } from '../home/home-layout.js';
import type { Db } from '../store/database.js';
import { type HaeCategory, resolveMetric } from './hae/catalogue.js';
import type { Sample } from './hae/sample.js';
import type { ExtractResult } from './hae/samples.js';
import { attachSampleStore, fillSubscribers, type SubscriberResult, subscriptions } from './hae-cards.js';
import { HAE_INSERT_BATCH, HAE_MAX_WARNINGS, HAE_PUSHES_KEEP, type HaeEnv } from './hae-env.js';
import { HaeSampleStore } from './hae-store.js';
import { HaeTokenStore } from './hae-token.js';

/** Logger shape (pino's and the instance's). */
export interface IngestLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
}

/** The summary of one push, kept in `hae_pushes.summary` and shown as `lastPush` (REFERENCE `last-push.json`). */
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

/** One discovered metric (REFERENCE section 4 discoveries). */
export interface Discovery {
  metric: string;
  firstSeenAt: string;
}

/** `GET /api/health-auto-export/discoveries`. */
export interface Discoveries {
  undismissed: { supported: Partial<Record<HaeCategory, Discovery[]>>; unsupported: Discovery[] };
  dismissed: (Discovery & { dismissedAt: string; supported: boolean })[];
}

/** One push in progress: add samples as they are read, then finish() once. */
export class PushRun {
  readonly id: number;
  readonly receivedAt: string;
  private received = 0;
  private inserted = 0;
  private skipped = 0;
  private readonly affected = new Map<string, Set<string>>();
  /** Sample metrics listed by the body (also blocks with `"data": []`). */
  private readonly listed = new Set<string>();
  /** Sample metrics with at least one sample in the body. */
  private readonly withSamples = new Set<string>();
  private readonly warnings: string[] = [];
  private moreWarnings = 0;
  private finished = false;

  constructor(
    private readonly svc: HaeIngest,
    readonly origin: string,
    private bytes: number,
  ) {
    this.receivedAt = new Date().toISOString();
    this.id = svc.samples.beginPush(origin, this.receivedAt, bytes);
  }

  /** Sets the body size, bytes (known only at the end of a streamed body). */
  setBytes(bytes: number): void {
    this.bytes = bytes;
  }

  /** Adds a warning line (kept up to HAE_MAX_WARNINGS). */
  warn(line: string): void {
    if (this.warnings.length < HAE_MAX_WARNINGS) this.warnings.push(line);
    else this.moreWarnings++;
  }

  private note(extract: Pick<ExtractResult, 'skipped' | 'warnings' | 'knownMetrics' | 'unknownMetrics'>, samples: readonly Sample[]): void {
    this.skipped += extract.skipped;
    for (const w of extract.warnings) this.warn(w);
    for (const m of extract.knownMetrics) this.listed.add(m);
    for (const m of extract.unknownMetrics) this.listed.add(m);
    for (const s of samples) this.withSamples.add(s.metric);
  }

  private store(samples: readonly Sample[]): void {
    const r = this.svc.samples.insert(samples, this.id);
    this.received += r.offered;
    this.inserted += r.inserted;
    for (const [metric, dates] of r.affected) {
      const all = this.affected.get(metric);
      if (all) for (const d of dates) all.add(d);
      else this.affected.set(metric, dates);
    }
  }

  /** Stores the samples of one extraction in one transaction (arrival order = their order). */
  add(extract: ExtractResult): void {
    this.note(extract, extract.samples);
    this.store(extract.samples);
  }

  /** As add(), in transactions of HAE_INSERT_BATCH samples with a turn of the event loop between them. */
  async addInBatches(extract: ExtractResult): Promise<void> {
    this.note(extract, extract.samples);
    for (let i = 0; i < extract.samples.length; i += HAE_INSERT_BATCH) {
      this.store(extract.samples.slice(i, i + HAE_INSERT_BATCH));
      if (i + HAE_INSERT_BATCH < extract.samples.length) await yieldToLoop();
    }
  }

  /**
   * Fills the subscribed cards for the affected dates, records the metrics seen and the push.
   * @returns the push summary plus `ingested` `{cardId: rowsWritten}` for the webhook answer.
   */
  finish(): PushSummary & { ingested: Record<string, number> } {
    if (this.finished) throw new Error('push already finished');
    this.finished = true;
    const subscribers = fillSubscribers(this.svc.cards, this.svc.samples, this.affected, this.listed);
    for (const s of subscribers) {
      if (s.note) this.warn(`card ${s.id}: ${s.note}`);
    }
    const subscribed = new Set(subscriptions(this.svc.cards).map((s) => s.entry.reads));
    const availableUnsubscribed = [...this.withSamples].filter((m) => !subscribed.has(m)).sort();
    this.svc.samples.markSeen(this.withSamples, this.receivedAt);
    const warnings = this.moreWarnings ? [...this.warnings, `... and ${this.moreWarnings} more warning(s)`] : [...this.warnings];
    const summary: PushSummary = {
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
    this.svc.samples.finishPush(
      this.id,
      { bytes: this.bytes, samples: this.received, newSamples: this.inserted, skipped: this.skipped },
      summary as unknown as Record<string, unknown>,
      HAE_PUSHES_KEEP,
    );
    return { ...summary, ingested: Object.fromEntries(subscribers.map((s) => [s.id, s.rowsWritten])) };
  }
}

/** Options of HaeIngest. */
export interface HaeIngestOptions {
  db: Db;
  layout: HomeLayout;
  cards: CardContext;
  env: HaeEnv;
  log?: IngestLogger;
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

  /**
   * Opens ingestion on an open instance: creates the folders, removes spooled bodies a crash left
   * behind, migrates the legacy token once, and connects the samples store to card creation.
   */
  constructor(opts: HaeIngestOptions) {
    this.log = opts.log ?? silent;
    this.cards = opts.cards;
    this.samples = new HaeSampleStore(opts.db);
    this.tokens = new HaeTokenStore(path.join(opts.layout.home, 'config.json'));
    const root = path.join(opts.layout.home, 'ingest');
    this.dirs = {
      root,
      incoming: path.join(root, 'incoming'),
      quarantine: path.join(root, 'quarantine'),
      uploads: path.join(root, 'uploads'),
    };
    for (const d of Object.values(this.dirs)) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    for (const d of [this.dirs.incoming, this.dirs.uploads]) {
      for (const name of fs.readdirSync(d)) fs.rmSync(path.join(d, name), { force: true, recursive: true });
    }
    this.maxBytes = opts.env.maxBytes;
    this.appleHealthMaxBytes = opts.env.appleHealthMaxBytes;
    try {
      if (this.tokens.migrateLegacy(opts.env.legacyToken)) {
        this.log.info({}, 'HEALTH_AUTO_EXPORT_TOKEN moved into config.json (hae.token); the variable is ignored from now on');
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not migrate HEALTH_AUTO_EXPORT_TOKEN into config.json');
    }
    attachSampleStore(opts.cards, this.samples);
  }

  /** Starts a push of `origin` (`hae` or `apple-health`) whose body is `bytes` long (so far). */
  startPush(origin: string, bytes: number): PushRun {
    return new PushRun(this, origin, bytes);
  }

  /** The newest completed webhook push summary, or null. */
  lastPush(origin = 'hae'): PushSummary | null {
    return (this.samples.lastPush(origin)?.summary as PushSummary | null | undefined) ?? null;
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
      if (seen.dismissedAt) out.dismissed.push({ ...item, dismissedAt: seen.dismissedAt, supported: entry !== undefined });
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
