/**
 * Photos and scans as PNG or JPEG: the size is read from the header and an oversized image is
 * refused before any decoder sees it; then tesseract reads it.
 */
import { MAX_REPORT_IMAGE_PIXELS, MAX_REPORT_IMAGE_SIDE_PX } from '../limits.js';
import { type Extracted, ReportRejected, visibleChars } from './extracted.js';
import { imageSize } from './image-size.js';
import { tesseract } from './ocr-tesseract.js';

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
  opts: { psm: number; signal?: AbortSignal },
): Promise<Extracted> {
  checkImageSize(file);
  const text = await tesseract(file, opts.psm, opts.signal);
  if (visibleChars(text) === 0) throw new ReportRejected('no text was found in the image');
  return { text, sourceFormat: 'image-ocr', ocr: true, pages: 1, notes: [], psm: opts.psm };
}
