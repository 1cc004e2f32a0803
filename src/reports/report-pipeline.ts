/**
 * Reading one uploaded report, start to end, off the request path: extract the text (refused
 * files end `rejected`, their original deleted), keep the text beside the original, understand
 * it with the model (numbers checked by the fidelity gate), and write the outcome:
 * - text from OCR or a picture: `needs checking` until a person confirms it (then `ready`, or
 *   `raw` when it was not summarised);
 * - otherwise `ready` with a summary, or `raw` (the extracted text, labelled "not summarised",
 *   with the reason) when the model was not there, answered badly, or changed a number;
 * - `rejected` when the file cannot be read or the model says it is not about health.
 */
import fs from 'node:fs';
import type { GatewayConfig } from '../chat/gateway/index.js';
import { comprehend, scrubIdentifiers } from './comprehend.js';
import { extractReport } from './extract.js';
import { ReportRejected } from './extracted.js';
import { DEFAULT_PSM } from './ocr-tesseract.js';
import { rawBody, rejectedBody, summaryBody } from './report-body.js';
import type { ReportHeader } from './report-file.js';
import type { ReportStore } from './report-store.js';
import type { OcrMode } from './reports-env.js';
import type { ReportExtension } from './upload-name.js';

/** What a reading may ask for beyond the defaults (a re-run). */
export interface ReadRequest {
  /** Tesseract page segmentation mode. */
  psm?: number;
  /** Read a PDF's pages by OCR even when it has a text layer. */
  forceOcr?: boolean;
  /** Read photos and scans with tesseract only (a re-run with another page segmentation mode). */
  tesseractOnly?: boolean;
}

/** What the pipeline needs from the instance. */
export interface PipelineDeps {
  store: ReportStore;
  /** The chat gateway, or null when no model is configured. */
  gateway: GatewayConfig | null;
  /** KLEBB_OCR_MODE: `auto` lets the chat model read photos and scans too. */
  ocrMode: OcrMode;
  signal?: AbortSignal;
  log?: (obj: object, msg: string) => void;
}

const stemTitle = (file: string) => file.replace(/\.[^.]+$/, '') || file;

/** Reads report `name` (in `processing`) to its outcome. Never throws for a bad file. */
export async function processReport(deps: PipelineDeps, name: string, req: ReadRequest = {}): Promise<void> {
  const { store } = deps;
  const r = store.read(name);
  if (!r) return;
  const original = store.originalPath(r);
  const ext = r.header.archive_path.split('.').pop() as ReportExtension;
  const base: ReportHeader = { ...r.header, status: 'processing', reason: undefined, notes: undefined };
  const fallbackTitle = stemTitle(r.header.source_file);
  const reject = (reason: string, keepOriginal: boolean) => {
    if (!keepOriginal && original) fs.rmSync(original, { force: true });
    fs.rmSync(store.textPath(name), { force: true });
    const header: ReportHeader = { ...base, status: 'rejected', verify: 'none', summarised: 'no', reason };
    store.write(name, header, rejectedBody(r.header.title ?? fallbackTitle, reason));
    deps.log?.({ report: name, reason }, 'report rejected');
  };
  if (!original || !fs.existsSync(original)) return reject('the original file is missing', true);

  const psm = req.psm ?? r.header.ocr_psm ?? DEFAULT_PSM;
  let extracted: Awaited<ReturnType<typeof extractReport>>;
  try {
    const vision = deps.ocrMode === 'auto' && deps.gateway && !req.tesseractOnly ? deps.gateway : undefined;
    extracted = await extractReport(original, ext, {
      psm,
      forceOcr: req.forceOcr,
      vision,
      signal: deps.signal,
    });
  } catch (err) {
    if (err instanceof ReportRejected) return reject(err.reason, false);
    throw err;
  }
  fs.writeFileSync(store.textPath(name), extracted.text);
  const understood = await comprehend(deps.gateway, extracted.text, deps.signal);
  if (understood.kind === 'not-health') {
    return reject(
      `it does not look like a health document (the model read it as "${understood.title}")`,
      true,
    );
  }
  const header: ReportHeader = {
    ...base,
    source_format: extracted.sourceFormat,
    status: extracted.ocr ? 'needs checking' : understood.kind === 'summary' ? 'ready' : 'raw',
    verify: extracted.ocr ? 'required' : 'none',
    summarised: understood.kind === 'summary' ? 'yes' : 'no',
    notes: extracted.notes.length ? extracted.notes.join('; ') : undefined,
    ocr_attempts: extracted.ocr ? (r.header.ocr_attempts ?? 0) + 1 : r.header.ocr_attempts,
    ocr_psm: extracted.psm,
  };
  if (understood.kind === 'summary') {
    const s = understood.summary;
    store.write(
      name,
      { ...header, title: s.title, document_date: s.documentDate ?? undefined, bullets: s.bullets },
      summaryBody(s, extracted.notes),
    );
  } else {
    const text = scrubIdentifiers(extracted.text, understood.identifiers);
    const title = scrubIdentifiers(fallbackTitle, understood.identifiers);
    store.write(
      name,
      { ...header, title, document_date: undefined, bullets: undefined, reason: understood.reason },
      rawBody(title, text, understood.reason, extracted.notes),
    );
  }
  deps.log?.({ report: name, status: header.status, format: extracted.sourceFormat }, 'report read');
}
