/**
 * Writes an export archive (yazl) to a stream: each file in order, its size and sha256 learnt
 * while it streams, then the manifest `klebb-export.json` last (so a torn archive has no
 * manifest and is refused on import). Memory stays flat: one chunk of one file at a time.
 */
import { Readable } from 'node:stream';
import type yazlTypes from 'yazl';
import { lazyRequire } from '../lazy-module.js';
import type { ExportFile } from './export-files.js';
import { EXPORT_MANIFEST_NAME, type ExportManifest, type InventoryFile } from './export-format.js';
import { hashingStream } from './hashing-stream.js';

/** The zip writer, loaded with the first export. */
const yazl = lazyRequire<typeof yazlTypes>('yazl');

/**
 * Starts the archive; the returned stream is the zip's bytes. `manifest.inventory.files` is
 * filled in as the files stream.
 * @param mtime the modification time written for every entry (the export's time).
 */
export function exportZipStream(
  files: ExportFile[],
  manifest: Omit<ExportManifest, 'inventory'> & { inventory: Omit<ExportManifest['inventory'], 'files'> },
  mtime: Date,
): Readable {
  const zip = new (yazl().ZipFile)();
  const listed: InventoryFile[] = [];
  for (const f of files) {
    zip.addReadStreamLazy(f.name, { mtime, mode: 0o100600 }, (cb) => {
      cb(
        null,
        hashingStream(f.pieces(), ({ bytes, sha256 }) => {
          listed.push({ file: f.name, bytes, sha256, ...(f.rows !== undefined ? { rows: f.rows } : {}) });
        }),
      );
    });
  }
  // lazily: yazl asks for this stream only after every file before it has been read to its end
  zip.addReadStreamLazy(EXPORT_MANIFEST_NAME, { mtime, mode: 0o100600 }, (cb) => {
    const full: ExportManifest = { ...manifest, inventory: { ...manifest.inventory, files: listed } };
    cb(null, Readable.from([Buffer.from(`${JSON.stringify(full, null, 2)}\n`)]));
  });
  zip.end();
  const out = zip.outputStream as Readable;
  zip.on('error', (err) => out.destroy(err));
  return out;
}
