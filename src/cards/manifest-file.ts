/**
 * Reading and writing one manifest file (`HEALTH_HOME/data/<id>.json`). On disk a manifest is
 * meta-only: `$schema`, `meta`, `description`, `schema` and any unknown top-level keys; the rows
 * live in the store. Unknown keys pass through untouched.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A manifest object without its `data` block. Keys other than the known ones pass through. */
export type ManifestBody = Record<string, unknown> & {
  $schema?: unknown;
  meta?: Record<string, unknown>;
  description?: unknown;
  schema?: unknown;
};

/** sha256 of file bytes, hex: how the watcher recognises our own writes by content. */
export function contentHash(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The bytes we write for a manifest: two-space JSON with a final newline, `data` never included. */
export function serializeManifest(body: ManifestBody): string {
  const { data: _data, ...rest } = body as Record<string, unknown>;
  return `${JSON.stringify(rest, null, 2)}\n`;
}

/** Splits a parsed file into its meta-only body and its `data` (hasData false when the key is absent). */
export function splitData(parsed: Record<string, unknown>): {
  body: ManifestBody;
  hasData: boolean;
  data: unknown;
} {
  const { data, ...body } = parsed;
  return { body, hasData: Object.hasOwn(parsed, 'data'), data };
}

/**
 * Whether a file name in the data folder is a manifest the loader should read: a top-level
 * `*.json` that is not a dot-file and not a backup named `<x>.json.<stamp>.json`.
 */
export function isManifestFileName(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('.') && !/\.json\.[^/\\]+\.json$/.test(name);
}

/** Name of the backup kept when a manifest carrying `data` is imported: `<name>.<UTC stamp>.json`. */
export function backupFileName(name: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${name}.${stamp}.json`;
}

/**
 * Where to keep the backup of the file `name` in `dir`: `<name>.<UTC stamp>.json`, or
 * `<name>.<stamp>-2.json`, `-3` … when a backup of the same second is there already, so a file
 * imported twice within a second never overwrites the first copy kept.
 */
export function freeBackupPath(dir: string, name: string, now = new Date()): string {
  const base = backupFileName(name, now).slice(0, -'.json'.length);
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? `${base}.json` : `${base}-${n}.json`);
    if (!fs.existsSync(candidate)) return candidate;
  }
}
