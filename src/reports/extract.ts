/**
 * Reads an uploaded file into text by its extension (the upload already checked that the content
 * matches it). ProgramErrors of the external readers become rejections with their reason.
 */
import fs from 'node:fs';
import type { GatewayConfig } from '../chat/gateway/index.js';
import { extractDocx } from './extract-docx.js';
import { extractImage } from './extract-image.js';
import { extractPdf } from './extract-pdf.js';
import { capText, type Extracted, ReportRejected, visibleChars } from './extracted.js';
import { ProgramError } from './run-program.js';
import type { ReportExtension } from './upload-name.js';

/** Options of one reading. */
export interface ExtractOptions {
  /** Tesseract page segmentation mode for photos and scans. */
  psm: number;
  /** Read a PDF's pages by OCR even when it has a text layer. */
  forceOcr?: boolean;
  /** The chat model that also reads photos and scans (KLEBB_OCR_MODE=auto), if any. */
  vision?: GatewayConfig;
  signal?: AbortSignal;
}

function extractText(file: string): Extracted {
  let text = fs.readFileSync(file, 'utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replace(/\r\n?/g, '\n').trim();
  if (visibleChars(text) === 0) throw new ReportRejected('the file holds no text');
  return { text, sourceFormat: 'text', ocr: false, pages: 1, notes: [] };
}

/**
 * The text of `file`.
 * @throws ReportRejected with the reason the file cannot be read.
 */
export async function extractReport(
  file: string,
  ext: ReportExtension,
  opts: ExtractOptions,
): Promise<Extracted> {
  try {
    switch (ext) {
      case 'pdf':
        return capText(await extractPdf(file, opts));
      case 'png':
      case 'jpg':
      case 'jpeg':
        return capText(await extractImage(file, opts));
      case 'docx':
        return capText(await extractDocx(file));
      default:
        return capText(extractText(file));
    }
  } catch (err) {
    if (err instanceof ProgramError)
      throw new ReportRejected(`${err.program} could not read it: ${err.reason}`);
    throw err;
  }
}
