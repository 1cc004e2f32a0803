/**
 * Environment of the report uploads: `KLEBB_REPORTS_MAX` (default 20, uploaded reports kept) and
 * `KLEBB_OCR_MODE` (`auto`, the default: photos and scans are also read by the chat model when it
 * accepts images, with tesseract as the fallback and the witness; `local`: tesseract only, no page
 * image ever leaves the machine). src/config.ts calls `readReportsEnv`; a bad value stops the start.
 */
import { DEFAULT_REPORTS_MAX } from '../limits.js';

/** How photos and scans are read. */
export type OcrMode = 'auto' | 'local';

/** What `readReportsEnv` returns. */
export interface ReportsEnv {
  /** KLEBB_REPORTS_MAX: uploaded reports kept (1 to 10 000). */
  max: number;
  /** KLEBB_OCR_MODE. */
  ocrMode: OcrMode;
}

/**
 * Reads the report variables.
 * @throws Error whose message starts with the variable's name and a colon.
 */
export function readReportsEnv(env: Record<string, string | undefined>): ReportsEnv {
  const rawMax = env.KLEBB_REPORTS_MAX?.trim();
  let max = DEFAULT_REPORTS_MAX;
  if (rawMax) {
    if (!/^\d+$/.test(rawMax) || Number(rawMax) < 1 || Number(rawMax) > 10_000) {
      throw new Error(
        `KLEBB_REPORTS_MAX: must be a whole number from 1 to 10000, got ${JSON.stringify(rawMax)}`,
      );
    }
    max = Number(rawMax);
  }
  const rawMode = env.KLEBB_OCR_MODE?.trim().toLowerCase() || 'auto';
  if (rawMode !== 'auto' && rawMode !== 'local') {
    throw new Error(`KLEBB_OCR_MODE: must be auto or local, got ${JSON.stringify(env.KLEBB_OCR_MODE)}`);
  }
  return { max, ocrMode: rawMode };
}
