/**
 * Optical character recognition with tesseract (English and German), one image at a time, boxed
 * by runProgram. One thread per run (`OMP_THREAD_LIMIT=1`), so OCR never takes every core from
 * the server.
 */
import { runProgram } from './run-program.js';

/**
 * Page segmentation modes a re-run walks through: one column of text of varying sizes (first:
 * it keeps a table's rows together, where the automatic mode reads tables column by column),
 * one uniform block, automatic, automatic with orientation detection, sparse text.
 */
export const PSM_LADDER = [4, 6, 3, 1, 11] as const;
export const DEFAULT_PSM = 4;

/** The next mode after `psm` on the ladder (wrapping round). */
export function nextPsm(psm: number | undefined): number {
  const i = PSM_LADDER.indexOf((psm ?? DEFAULT_PSM) as (typeof PSM_LADDER)[number]);
  return PSM_LADDER[(i + 1) % PSM_LADDER.length];
}

/**
 * The text tesseract reads in `image` (a PNG, JPEG or PGM path).
 * @throws ProgramError when tesseract fails, runs out of time or memory.
 */
export async function tesseract(image: string, psm: number, signal?: AbortSignal): Promise<string> {
  const out = await runProgram('tesseract', [image, 'stdout', '-l', 'eng+deu', '--psm', String(psm)], {
    env: { OMP_THREAD_LIMIT: '1' },
    maxOutputBytes: 4 * 1024 * 1024,
    signal,
  });
  return out.toString('utf8').replace(/\f/g, '').trim();
}
