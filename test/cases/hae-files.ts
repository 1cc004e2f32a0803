/**
 * The real HAE payloads of the cases folder (real-data/hae/), read at test time, and the pure
 * pipeline over them (test/hae/hae-files.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ingestPayload } from '../hae/hae-files.js';
import { casePath, casesPresent } from './cases-dir.js';

export const haeDir = casePath('real-data', 'hae');

/** Names of the real payload files (none when the cases folder is absent). */
export const HAE_FILES = casesPresent()
  ? fs
      .readdirSync(haeDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

/** The parsed JSON of one real file. */
export function readHae(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(haeDir, file), 'utf8'));
}

/** The bytes of one real file. */
export function haeBytes(file: string): Buffer {
  return fs.readFileSync(path.join(haeDir, file));
}

/** One real file through the pipeline. */
export function ingestFile(file: string) {
  return ingestPayload(readHae(file));
}
