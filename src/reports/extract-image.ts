/**
 * Photos and scans as PNG or JPEG: the size is read from the header and an oversized image is
 * refused before any decoder sees it; then tesseract reads it, and, when `vision` names a chat
 * model, the model reads it too, downscaled (the photo wrapped into a PDF for pdftoppm).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GatewayConfig } from '../chat/gateway/index.js';
import { MAX_REPORT_IMAGE_PIXELS, MAX_REPORT_IMAGE_SIDE_PX } from '../limits.js';
import { type Extracted, ReportRejected, visibleChars, witnessNotes } from './extracted.js';
import { imageToPdf } from './image-pdf.js';
import { imageSize } from './image-size.js';
import { tesseract } from './ocr-tesseract.js';
import { readWithVision } from './ocr-vision.js';

/**
 * Refuses an image whose header cannot be read or whose size is over the limits.
 * @throws ReportRejected.
 */
export function checkImageSize(file: string): { width: number; height: number } {
  const size = imageSize(file);
  if (!size || size.width < 1 || size.height < 1)
    throw new ReportRejected('the image cannot be read: its header is damaged');
  if (
    size.width > MAX_REPORT_IMAGE_SIDE_PX ||
    size.height > MAX_REPORT_IMAGE_SIDE_PX ||
    size.width * size.height > MAX_REPORT_IMAGE_PIXELS
  ) {
    throw new ReportRejected(
      `the image is ${size.width} × ${size.height} pixels; at most ${MAX_REPORT_IMAGE_SIDE_PX} pixels a side and ${MAX_REPORT_IMAGE_PIXELS / 1_000_000} megapixels are read`,
    );
  }
  return size;
}

/**
 * Reads a PNG or JPEG with tesseract.
 * @throws ReportRejected (size, no text found); ProgramError from tesseract.
 */
export async function extractImage(
  file: string,
  opts: { psm: number; vision?: GatewayConfig; signal?: AbortSignal },
): Promise<Extracted> {
  checkImageSize(file);
  const text = await tesseract(file, opts.psm, opts.signal);
  const notes: string[] = [];
  if (opts.vision) {
    const pdf = imageToPdf(file);
    if (!pdf) notes.push('this kind of image cannot be shown to the chat model; read by tesseract');
    else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-vision-'));
      try {
        const wrapped = path.join(dir, 'image.pdf');
        fs.writeFileSync(wrapped, pdf);
        const v = await readWithVision(opts.vision, wrapped, 1, dir, text, opts.signal);
        if (v.ok) {
          return {
            text: v.text,
            sourceFormat: 'image-vision',
            ocr: true,
            pages: 1,
            notes: witnessNotes(v.unwitnessed),
            psm: opts.psm,
          };
        }
        notes.push(`${v.reason}; read by tesseract instead`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  if (visibleChars(text) === 0) throw new ReportRejected('no text was found in the image');
  return { text, sourceFormat: 'image-ocr', ocr: true, pages: 1, notes, psm: opts.psm };
}
