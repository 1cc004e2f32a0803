/**
 * An upload sent again: the same file under the same name as a report already uploaded. A phone
 * whose upload answer was lost (a slow connection timing out on a 30 MB scan, a tap on Upload
 * again, a double tap) sends the whole file a second time; filed again, it would take a second
 * slot of the quota, be read and summarised a second time and be listed twice. Such an upload is
 * answered with the report it already is.
 */
import fs from 'node:fs';
import type { ReportStore } from './report-store.js';
import type { UploadName } from './upload-name.js';

const CHUNK = 64 * 1024;

/** Whether the files `a` and `b` hold the same bytes (false when either cannot be read). */
export function sameBytes(a: string, b: string): boolean {
  let fa: number | undefined;
  let fb: number | undefined;
  try {
    if (fs.statSync(a).size !== fs.statSync(b).size) return false;
    fa = fs.openSync(a, 'r');
    fb = fs.openSync(b, 'r');
    const ba = Buffer.alloc(CHUNK);
    const bb = Buffer.alloc(CHUNK);
    for (;;) {
      const na = fs.readSync(fa, ba, 0, CHUNK, null);
      const nb = fs.readSync(fb, bb, 0, CHUNK, null);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } catch {
    return false;
  } finally {
    if (fa !== undefined) fs.closeSync(fa);
    if (fb !== undefined) fs.closeSync(fb);
  }
}

/**
 * The name of the uploaded report whose original has the file name `upload.original` and the
 * bytes of `file` (a received upload), or null. Synchronous, so a check and the filing of the
 * upload that follows it are never split by a second upload of the same file.
 */
export function findSameUpload(store: ReportStore, upload: UploadName, file: string): string | null {
  for (const r of store.list()) {
    if (r.header.source_file !== upload.original) continue;
    const original = store.originalPath(r);
    if (original && sameBytes(original, file)) return r.name;
  }
  return null;
}
