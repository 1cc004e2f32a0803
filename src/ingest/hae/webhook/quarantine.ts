/**
 * The quarantine of webhook bodies that did not parse ("on failure
 * quarantine the bytes (bounded, most recent few) and reply 200+warning"): the exact bytes as
 * received, one file each, in `$HEALTH_HOME/ingest/quarantine/`, only the newest few kept.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, writeFileAtomic } from '../../../home/atomic-write.js';

let sequence = 0;

/**
 * Quarantine file name: sortable UTC time, a per-process sequence (two bodies in one millisecond
 * still sort in arrival order) and a random suffix: `2026-03-07T10-15-02-123Z-000001-ab12cd.body`.
 */
function quarantineName(now: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  const seq = String(sequence).padStart(6, '0');
  return `${now.toISOString().replace(/[:.]/g, '-')}-${seq}-${randomBytes(3).toString('hex')}.body`;
}

/**
 * Keeps a body in `dir`: `body` bytes are written atomically (mode 0600), or an already written
 * spool file is moved in (same filesystem). Then only the newest `keep` files are kept.
 * @returns the quarantine file name.
 */
export function quarantine(
  dir: string,
  body: Buffer | { file: string },
  keep: number,
  now = new Date(),
): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = quarantineName(now);
  const target = path.join(dir, name);
  if (Buffer.isBuffer(body)) writeFileAtomic(target, body, 0o600);
  else {
    fs.renameSync(body.file, target);
    fsyncDir(dir);
  }
  prune(dir, keep);
  return name;
}

/** Removes all but the newest `keep` quarantined bodies (by name, which starts with the time). */
export function prune(dir: string, keep: number): void {
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.body'))
    .sort();
  for (const n of names.slice(0, Math.max(0, names.length - keep)))
    fs.rmSync(path.join(dir, n), { force: true });
}

/** The quarantined body names, oldest first. */
export function quarantined(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.body'))
    .sort();
}
