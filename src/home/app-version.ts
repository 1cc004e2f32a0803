/**
 * This build's version, from the project's package.json (read once; '0' when it cannot be read).
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './project-root.js';

let cached: string | undefined;

/** This build's version (package.json `version`), e.g. "0.1.0". */
export function appVersion(): string {
  if (cached !== undefined) return cached;
  try {
    cached = String(
      JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')).version ?? '0',
    );
  } catch {
    cached = '0';
  }
  return cached;
}
