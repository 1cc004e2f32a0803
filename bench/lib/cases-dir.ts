/**
 * The folder of real-world cases some benchmarks read (a real Health Auto Export payload):
 * `KLEBB_CASES_DIR`, else the same default as the cases suite (test/cases/cases-dir.ts), the
 * `cases` folder of a `shared` folder beside the project. Its files are not shipped in the
 * repository; a benchmark that needs one says so when it is missing.
 */
import path from 'node:path';
import { repoRoot } from './klebb.js';

/** Absolute path of a file inside the cases folder, e.g. `casePath('real-data', 'hae', 'x.json')`. */
export function casePath(...parts: string[]): string {
  const dir = process.env.KLEBB_CASES_DIR ?? path.join(repoRoot, '..', 'shared', 'cases');
  return path.resolve(dir, ...parts);
}
