/**
 * From the spooled upload to the plain `export.xml` the reader takes: what the upload is is told
 * by its first bytes, whatever its Content-Type. Gzip (an `export.xml.gz`, or one compressed again
 * by a tool or mail program that did not notice it already was) is decompressed, up to
 * MAX_GZIP_LAYERS layers; the Health app's `export.zip` gives its export entry (zip-export.ts),
 * also from inside another zip (MAX_ZIP_LAYERS);
 * a form body that lost its Content-Type is refused (form-upload.ts). Every step is a stream into a new file beside the
 * upload, under the upload's limit on the bytes it unpacks to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KlebbError } from '../../errors.js';
import type { MetricBlock } from '../hae/format/payload.js';
import { spoolOwnerPrefix } from '../spool-files.js';
import { type EcgHead, ecgRecordingsBlock } from './ecg-csv.js';
import { formUploadRefused, looksLikeFormBody } from './form-upload.js';
import { gunzipFile } from './gunzip-upload.js';
import { unzipExport } from './zip-export.js';

/**
 * Gzip layers decompressed at most. One is an `export.xml.gz`; two happen (a file compressed
 * once more on the way, or sent with `Content-Encoding: gzip` as well); more are not an accident
 * worth the work.
 */
export const MAX_GZIP_LAYERS = 3;

/**
 * Zip archives unpacked at most: the Health app's export.zip, and the zip it may come in (a
 * folder downloaded from a cloud drive, export.zip zipped again to mail it).
 */
export const MAX_ZIP_LAYERS = 2;

/** What a file's first bytes say it is. */
type Kind = 'gzip' | 'zip' | 'form' | 'other';

function kindOf(file: string): Kind {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(1024);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
    if (n >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (looksLikeFormBody(head.subarray(0, n))) return 'form';
    return 'other';
  } finally {
    fs.closeSync(fd);
  }
}

/** What unpacking an upload gave. */
export interface Unpacked {
  /** The plain file to read: the upload itself, or a file beside it (the caller removes both). */
  file: string;
  /** Gzip layers decompressed. */
  gzipLayers: number;
  /** The zip entry read, when the upload was a zip archive (`outer.zip-entry/inner-entry` for a zip in a zip). */
  zipEntry: string | null;
  /** What the import's answer should say about the archive (a zip cut short), most serious first. */
  warnings: string[];
  /** The electrocardiograms recorded beside the export in its zip (ecg-csv.ts): the `ecg` block, or none. */
  extraBlocks: MetricBlock[];
}

/**
 * Unpacks the upload `file` to the plain file it holds (see the module comment). Files made on
 * the way are removed as soon as the next one is made, and on failure.
 * @param maxBytes most bytes any step may unpack to (KLEBB_APPLE_HEALTH_MAX_BYTES).
 * @param workDir where the unpacked files are made, when not beside `file` (the import script
 *   reads a person's own file, whose folder it does not write to); `file` itself is never removed.
 * @throws 415 UNSUPPORTED_MEDIA_TYPE for a form body without its Content-Type or a file gzip-compressed more than
 *   MAX_GZIP_LAYERS times; gunzipFile's and unzipExport's errors (400, 413, 422).
 */
export async function unpackUpload(file: string, maxBytes: number, workDir?: string): Promise<Unpacked> {
  let current = file;
  let gzipLayers = 0;
  let zipEntry: string | null = null;
  let zipLayers = 0;
  const warnings: string[] = [];
  const ecg: EcgHead[] = [];
  const next = (step: string) =>
    workDir === undefined
      ? `${file}.${step}`
      : path.join(workDir, `${spoolOwnerPrefix()}${path.basename(file)}.${step}`);
  const replace = (made: string) => {
    if (current !== file) fs.rmSync(current, { force: true });
    current = made;
  };
  try {
    for (;;) {
      const kind = kindOf(current);
      if (kind === 'form') throw formUploadRefused();
      if (kind === 'gzip') {
        if (gzipLayers === MAX_GZIP_LAYERS) {
          throw new KlebbError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            `the file is gzip-compressed more than ${MAX_GZIP_LAYERS} times over: gunzip it until it is export.xml (or export.zip), and upload that`,
          );
        }
        const out = next(`gunzip${++gzipLayers}`);
        await gunzipFile(current, out, maxBytes);
        replace(out);
      } else if (kind === 'zip' && zipLayers < MAX_ZIP_LAYERS) {
        const out = next(`unzipped${++zipLayers}`);
        const unzipped = await unzipExport(current, out, maxBytes, zipLayers < MAX_ZIP_LAYERS);
        zipEntry = zipEntry === null ? unzipped.name : `${zipEntry}/${unzipped.name}`;
        if (unzipped.warning !== null) warnings.push(unzipped.warning);
        if (unzipped.ecg) {
          ecg.push(...unzipped.ecg.heads);
          warnings.push(...unzipped.ecg.warnings);
        }
        replace(out);
      } else {
        const extraBlocks = ecg.length > 0 ? [ecgRecordingsBlock(ecg)] : [];
        return { file: current, gzipLayers, zipEntry, warnings, extraBlocks };
      }
    }
  } catch (err) {
    if (current !== file) fs.rmSync(current, { force: true });
    throw err;
  }
}
