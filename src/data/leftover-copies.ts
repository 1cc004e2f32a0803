/**
 * Copies of the database that only live while an export or a snapshot is being made: the export's
 * snapshot file in `HEALTH_HOME/tmp/` (kept while the zip streams, which lasts as long as the
 * download) and a snapshot's half-built folder in `HEALTH_HOME/backups/`. A crash, a `kill -9`
 * or a power cut at that moment left them where they were for good: each a full copy of the
 * person's health data, outside the snapshots the retention prunes. Their names start with the
 * process that made them (src/ingest/spool-files.ts), so a start removes those of processes that
 * are gone and leaves those of a live export script or backup run on the same home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isLeftOver, removeLeftOverSpool, spoolOwnerPrefix } from '../ingest/spool-files.js';

/** `HEALTH_HOME/tmp`: where an export keeps its snapshot while it streams. */
export function scratchDir(home: string): string {
  return path.join(home, 'tmp');
}

/** The name of the folder a snapshot called `name` is built in: `.<owner><name>.tmp`. */
export function stagingName(name: string): string {
  return `.${spoolOwnerPrefix()}${name}.tmp`;
}

/** A snapshot's half-built folder: `.<owner><name>.tmp` (or `.<name>.tmp`, named before owners were). */
const STAGING = /^\.(.+)\.tmp$/;

/**
 * Removes the export snapshots and half-built snapshot folders of processes that are gone.
 * @param backupsDir the home's snapshot folder (HEALTH_HOME/backups).
 * @returns the names removed (for the log).
 */
export function removeLeftOverCopies(home: string, backupsDir: string): string[] {
  const removed: string[] = [];
  if (fs.existsSync(scratchDir(home))) removed.push(...removeLeftOverSpool(scratchDir(home)));
  let names: string[] = [];
  try {
    names = fs.readdirSync(backupsDir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const inner = STAGING.exec(name)?.[1];
    if (inner === undefined) continue;
    const dir = path.join(backupsDir, name);
    let mtimeMs: number;
    try {
      mtimeMs = fs.lstatSync(dir).mtimeMs;
    } catch {
      continue;
    }
    if (!isLeftOver(inner, mtimeMs)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
