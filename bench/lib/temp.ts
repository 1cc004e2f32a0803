/**
 * Temporary folders under os.tmpdir() for the benchmarks' homes and peer files, all removed by
 * removeAllTemp() (the runner calls it at the end, on error and on Ctrl-C).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const created = new Set<string>();

/** A fresh empty folder `<tmpdir>/klebb-bench-<prefix>-XXXXXX`. */
export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `klebb-bench-${prefix}-`));
  created.add(dir);
  return dir;
}

/** Removes one folder made by makeTempDir. */
export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  created.delete(dir);
}

/** Removes every folder still left. */
export function removeAllTemp(): void {
  for (const dir of [...created]) removeTempDir(dir);
}
