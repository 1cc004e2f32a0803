import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of real-world cases the cases suite reads: `KLEBB_CASES_DIR`, or `../shared/cases`
 * beside the project. It holds material we may not ship in the repository, so `npm test` never
 * reads it; `npm run test:cases` does, and skips when it is absent.
 */
export const CASES_DIR = path.resolve(
  process.env.KLEBB_CASES_DIR ??
    path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'cases'),
);

/** True when the cases folder is present on this machine. */
export function casesPresent(): boolean {
  return fs.existsSync(CASES_DIR);
}

/** Absolute path of a file or folder inside the cases folder, e.g. `casePath('gateway', 'x.txt')`. */
export function casePath(...parts: string[]): string {
  return path.join(CASES_DIR, ...parts);
}
