/**
 * Reading photos and scans with the chat model when it takes images (`KLEBB_OCR_MODE=auto`):
 * each page is rendered by pdftoppm as a JPEG with its long edge at VISION_LONG_EDGE_PX (never
 * the original file), and sent alone in one request for a plain transcription. Any page that
 * fails fails the whole document over to tesseract. Tesseract's reading of the same pages is the
 * witness: numbers of the model's text that tesseract did not also read are named in the notes,
 * for the person who checks the text. A model that refuses images (a 4xx, or words saying it takes
 * no images whatever the status: Ollama says so with 500) is remembered for the
 * life of the process and not asked again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { callGateway, type GatewayConfig, isGatewayError, refusesImageInput } from '../chat/gateway/index.js';
import { clipGraphemes } from '../common/graphemes.js';
import { REPORT_MODEL_TIMEOUT_MS } from '../limits.js';
import { checkNumericFidelity } from './numeric-fidelity.js';
import { runProgram } from './run-program.js';

/** Long edge of a page image sent to the model, px. */
export const VISION_LONG_EDGE_PX = 1568;

/** The instruction of a page transcription (our own words). */
export const VISION_INSTRUCTION =
  'Transcribe all the text on this page of a medical document exactly as it is written, in its language. ' +
  'Keep each table row on one line with its cells separated by two spaces. Copy every number, unit and date character for character; ' +
  'write [unreadable] for anything you cannot read. Reply with the text only.';

const refusedModels = new Set<string>();

/** Whether this gateway and model are known to refuse images. */
export function refusesImages(gateway: GatewayConfig): boolean {
  return refusedModels.has(`${gateway.url} ${gateway.model}`);
}

/** Renders page `page` of `pdf` as a JPEG for the model; resolves its path. */
export async function renderVisionPage(
  pdf: string,
  page: number,
  dir: string,
  signal?: AbortSignal,
): Promise<string> {
  const base = path.join(dir, `vision-${page}`);
  await runProgram(
    'pdftoppm',
    [
      '-f',
      String(page),
      '-l',
      String(page),
      '-jpeg',
      '-jpegopt',
      'quality=85',
      '-singlefile',
      '-scale-to',
      String(VISION_LONG_EDGE_PX),
      pdf,
      base,
    ],
    { signal },
  );
  return `${base}.jpg`;
}

/**
 * True when `err` refuses the request's image: a client error (not a rate limit), or words saying
 * the model cannot take images, whatever the status (Ollama says so with 500).
 */
function imagesRefused(err: unknown): boolean {
  if (!isGatewayError(err)) return false;
  const status = err.upstreamStatus;
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) return true;
  return refusesImageInput(`${err.message} ${err.detail ?? ''}`);
}

/** The outcome of a vision reading. */
export type VisionOutcome = { ok: true; text: string; unwitnessed: string[] } | { ok: false; reason: string };

/**
 * Asks the model for the text of each page (one request per page, in order) and compares its
 * numbers with tesseract's `witness` text. Never throws for a gateway failure.
 */
export async function readWithVision(
  gateway: GatewayConfig,
  pdf: string,
  pages: number,
  dir: string,
  witness: string,
  signal?: AbortSignal,
): Promise<VisionOutcome> {
  if (refusesImages(gateway)) return { ok: false, reason: 'the chat model does not take images' };
  const texts: string[] = [];
  for (let p = 1; p <= pages; p++) {
    const jpeg = await renderVisionPage(pdf, p, dir, signal);
    const url = `data:image/jpeg;base64,${fs.readFileSync(jpeg).toString('base64')}`;
    fs.rmSync(jpeg, { force: true });
    try {
      const result = await callGateway(
        { maxRetries: 1, ...gateway, callTimeoutMs: REPORT_MODEL_TIMEOUT_MS },
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: VISION_INSTRUCTION },
                { type: 'image_url', image_url: { url } },
              ],
            },
          ],
          stream: false,
          temperature: 0,
        },
        {},
        signal,
      );
      const text = result.text.trim();
      if (!text) return { ok: false, reason: `the chat model gave no text for page ${p}` };
      texts.push(text);
    } catch (err) {
      if (signal?.aborted) throw err;
      if (imagesRefused(err)) refusedModels.add(`${gateway.url} ${gateway.model}`);
      return {
        ok: false,
        reason: `the chat model could not read page ${p} (${clipGraphemes((err as Error).message, 160)})`,
      };
    }
  }
  const text = texts.join('\n\f');
  const unwitnessed = checkNumericFidelity(text, witness).unbacked.map((u) => u.text);
  return { ok: true, text, unwitnessed };
}
