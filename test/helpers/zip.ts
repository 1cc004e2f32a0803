/**
 * Reading and building zip archives in tests with the same well-kept library the product uses
 * (yauzl, yazl): entries in archive order with their bytes, and archives from a list of files.
 */
import yauzl from 'yauzl';
import yazl from 'yazl';

/** One entry of an archive, in order. */
export interface ZipEntryBytes {
  name: string;
  data: Buffer;
}

/** Every entry of a zip held in memory, in archive order. */
export function readZip(buf: Buffer): Promise<ZipEntryBytes[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: ZipEntryBytes[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e2, rs) => {
          if (e2 || !rs) return reject(e2);
          const parts: Buffer[] = [];
          rs.on('data', (c: Buffer) => parts.push(c));
          rs.on('error', reject);
          rs.on('end', () => {
            out.push({ name: entry.fileName, data: Buffer.concat(parts) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** A zip of the given files (in order), as bytes; a name ending in `/` is a folder entry. */
export function buildZip(
  files: { name: string; data: Buffer | string; compress?: boolean; mode?: number }[],
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const f of files) {
    if (f.name.endsWith('/')) {
      zip.addEmptyDirectory(f.name);
      continue;
    }
    zip.addBuffer(Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data), f.name, {
      compress: f.compress ?? true,
      ...(f.mode !== undefined ? { mode: f.mode } : {}),
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => parts.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
  });
}
