/** The real Apple Health export.xml snippets of the cases folder (real-data/apple-health/). */
import fs from 'node:fs';
import { casePath, casesPresent } from './cases-dir.js';

export const appleDir = casePath('real-data', 'apple-health');

/** The real export.xml snippets, sorted (none when the cases folder is absent). */
export const APPLE_FILES = casesPresent()
  ? fs
      .readdirSync(appleDir)
      .filter((f) => f.endsWith('.xml'))
      .sort()
  : [];
