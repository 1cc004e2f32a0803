/**
 * What reading a file gives: its text and how it was read. A file that cannot or must not be
 * read throws ReportRejected with a sentence for the person ("the PDF has 10000 pages; at most
 * 200 are read").
 */

import { unitPrefix } from '../common/utf8-prefix.js';
import { MAX_REPORT_TEXT_CHARS } from '../limits.js';

/** How the text was obtained (stored as the report's `source_format`). */
export type SourceFormat = 'pdf' | 'pdf-ocr' | 'image-ocr' | 'image-vision' | 'pdf-vision' | 'docx' | 'text';

/** The outcome of reading one file. */
export interface Extracted {
  /** Plain text; pages are separated by a form feed (`\f`). */
  text: string;
  sourceFormat: SourceFormat;
  /** True when the text came from OCR or a model looking at pictures: a person must check it. */
  ocr: boolean;
  /** Pages read (1 for images and text files). */
  pages: number;
  /** Things the person should know (pages not read, text cut). */
  notes: string[];
  /** The tesseract page segmentation mode used, when tesseract read it. */
  psm?: number;
}

/** The file is refused; `reason` says why in a sentence. */
export class ReportRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ReportRejected';
  }
}

/** Cuts text over MAX_REPORT_TEXT_CHARS, adding a note when it does. */
export function capText(e: Extracted): Extracted {
  if (e.text.length <= MAX_REPORT_TEXT_CHARS) return e;
  return {
    ...e,
    text: unitPrefix(e.text, MAX_REPORT_TEXT_CHARS),
    notes: [...e.notes, `the text was cut after ${MAX_REPORT_TEXT_CHARS} characters`],
  };
}

/** Visible (non-space) characters of a text. */
export function visibleChars(text: string): number {
  return text.replace(/\s+/g, '').length;
}

/** The note naming numbers the chat model read that tesseract did not (at most ten), if any. */
export function witnessNotes(unwitnessed: string[]): string[] {
  if (unwitnessed.length === 0) return [];
  const shown = unwitnessed.slice(0, 10).join(', ');
  const more = unwitnessed.length > 10 ? ` and ${unwitnessed.length - 10} more` : '';
  return [`check these numbers with care, tesseract did not read them the same: ${shown}${more}`];
}
