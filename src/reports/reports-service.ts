/**
 * The uploaded reports of one instance: taking an upload in (checked, quota-reserved, filed in
 * `processing`), reading it in the background one report at a time (so a burst of uploads never
 * takes more than one core of external programs), and the person's actions: verify, re-run,
 * delete. Every method that a route calls throws KlebbErrors for the person's mistakes.
 */
import fs from 'node:fs';
import type { GatewayConfig } from '../chat/gateway/index.js';
import type { ReportStatus, ReportSummary } from '../common/report-types.js';
import type { Config } from '../config.js';
import { conflict, forbidden, notFound } from '../errors.js';
import type { HomeLayout } from '../home/home-layout.js';
import { lazyImport } from '../lazy-module.js';
import { nextPsm } from './ocr-tesseract.js';
import { processingBody } from './report-body.js';
import type { PipelineDeps, ReadRequest } from './report-pipeline.js';
import { ReportStore, type StoredReport } from './report-store.js';
import type { UploadName } from './upload-name.js';

/** The reading pipeline (extractors, OCR, the model's summary), loaded with the first report to read. */
const pipeline = lazyImport(() => import('./report-pipeline.js'));

/** Logger shape (pino's). */
interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** The report uploads of one instance. */
export class ReportsService {
  readonly store: ReportStore;
  private queue: Promise<void> = Promise.resolve();
  private readonly waiting = new Set<string>();
  private readonly stop = new AbortController();

  /**
   * @param timeZone the person's zone (the one their browser reported), which names a report's
   *   upload day; undefined: the server's.
   */
  constructor(
    private readonly config: Pick<Config, 'chat' | 'reports'>,
    layout: HomeLayout,
    private readonly log: Log,
    private readonly timeZone: () => string | undefined = () => undefined,
  ) {
    this.store = new ReportStore(layout, config.reports.max);
  }

  /** The gateway settings of the understanding call, or null without a configured model. */
  gateway(): GatewayConfig | null {
    const chat = this.config.chat;
    if (!chat.endpointUrl) return null;
    return {
      url: chat.endpointUrl,
      apiKey: chat.apiKey,
      model: chat.model,
      tlsRejectUnauthorized: chat.tlsVerify,
    };
  }

  /** Prepares the folders and takes up reports a restart cut off mid-reading. */
  start(): void {
    this.store.prepare();
    for (const r of this.store.list()) if (r.header.status === 'processing') this.enqueue(r.name, {});
  }

  /** Stops the reading (the running external program is killed); safe to call twice. */
  close(): Promise<void> {
    this.stop.abort('shutdown');
    return this.idle();
  }

  /** Resolves when no report is waiting or being read. */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  private enqueue(name: string, req: ReadRequest): void {
    if (this.waiting.has(name)) return;
    this.waiting.add(name);
    const deps: PipelineDeps = {
      store: this.store,
      gateway: this.gateway(),
      ocrMode: this.config.reports.ocrMode,
      signal: this.stop.signal,
      log: (obj, msg) => this.log.info(obj, msg),
    };
    this.queue = this.queue.then(async () => {
      this.waiting.delete(name);
      if (this.stop.signal.aborted) return;
      try {
        await (await pipeline()).processReport(deps, name, req);
      } catch (err) {
        // a stop at shutdown leaves it in processing: the next start reads it again
        if (!this.stop.signal.aborted)
          this.log.warn({ report: name, err: (err as Error).message }, 'report reading failed');
      }
    });
  }

  /** Files a received upload and queues its reading; resolves the report's name. */
  accept(upload: UploadName, partFile: string): string {
    const name = this.store.claim(upload, partFile, new Date(), this.timeZone());
    this.enqueue(name, {});
    return name;
  }

  /** Quota figures. */
  quota() {
    const used = this.store.used();
    const max = this.store.max;
    return { used, max, remaining: Math.max(0, max - used) };
  }

  /** Every uploaded report, shaped for the list. */
  list(): ReportSummary[] {
    return this.store.list().map((r) => this.summary(r));
  }

  /** Shapes one report for the API. */
  summary(r: StoredReport): ReportSummary {
    const h = r.header;
    const original = this.store.originalPath(r);
    return {
      name: r.name,
      title: h.title ?? h.source_file,
      status: h.status,
      sourceFile: h.source_file,
      sourceFormat: h.source_format ?? null,
      ingestedAt: h.ingested_at,
      documentDate: h.document_date ?? null,
      bullets: h.bullets ?? [],
      reason: h.reason ?? null,
      notes: h.notes ?? null,
      needsVerify: h.status === 'needs checking',
      ocrAttempts: h.ocr_attempts ?? 0,
      ocrPsm: h.ocr_psm ?? null,
      hasOriginal: original !== null && fs.existsSync(original),
    };
  }

  /**
   * An uploaded report by name.
   * @throws 404 REPORT_NOT_FOUND; 403 HAND_WRITTEN for a hand-written report of that name.
   */
  get(name: string): StoredReport {
    const r = this.store.read(name);
    if (r) return r;
    if (/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) && this.store.exists(name)) {
      throw forbidden(
        `"${name}" is a hand-written report: change or delete its file in the reports folder`,
        'HAND_WRITTEN',
      );
    }
    throw notFound(`no uploaded report named "${name}"`, 'REPORT_NOT_FOUND');
  }

  /**
   * A person confirms the OCR text: `needs checking` becomes `ready` (or `raw` when it was not
   * summarised), and the agent may read it.
   * @throws 409 NOTHING_TO_VERIFY when the report is not waiting for a check.
   */
  verify(name: string): ReportSummary {
    const r = this.get(name);
    if (r.header.status !== 'needs checking') {
      throw conflict(
        `report "${name}" is ${r.header.status}: there is nothing to check`,
        'NOTHING_TO_VERIFY',
      );
    }
    const header = {
      ...r.header,
      status: (r.header.summarised === 'yes' ? 'ready' : 'raw') as ReportStatus,
      verify: 'done' as const,
    };
    this.store.write(name, header, r.body);
    return this.summary({ ...r, header });
  }

  /**
   * Reads a report again: `rerunOcr` reads photos and scans with the next tesseract mode (or
   * `psm`), a PDF by OCR even if it has a text layer; otherwise the same reading is retried
   * (after a model failure, say). Re-arms the check for OCR text.
   * @throws 409 REPORT_BUSY while it is being read; 404 ORIGINAL_MISSING when the original is gone.
   */
  reprocess(name: string, opts: { psm?: number; rerunOcr?: boolean }): { name: string; psm: number | null } {
    const r = this.get(name);
    if (r.header.status === 'processing') throw conflict(`report "${name}" is being read`, 'REPORT_BUSY');
    const original = this.store.originalPath(r);
    if (!original || !fs.existsSync(original)) {
      throw notFound(`the original of "${name}" is no longer kept: upload it again`, 'ORIGINAL_MISSING');
    }
    const ocr = opts.rerunOcr === true || opts.psm !== undefined;
    const psm = opts.psm ?? (ocr ? nextPsm(r.header.ocr_psm) : r.header.ocr_psm);
    const header = { ...r.header, status: 'processing' as const };
    this.store.write(name, header, processingBody(r.header.title ?? r.header.source_file));
    const isPdf = r.header.archive_path.endsWith('.pdf');
    this.enqueue(name, { psm, forceOcr: ocr && isPdf, tesseractOnly: ocr });
    return { name, psm: psm ?? null };
  }

  /**
   * Deletes an uploaded report with its original and text.
   * @throws 409 REPORT_BUSY while it is being read.
   */
  remove(name: string): void {
    const r = this.get(name);
    if (r.header.status === 'processing' && !this.waiting.has(name)) {
      throw conflict(`report "${name}" is being read: delete it when it is done`, 'REPORT_BUSY');
    }
    this.waiting.delete(name);
    this.store.remove(r);
  }
}
