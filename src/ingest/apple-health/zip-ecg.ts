/**
 * The electrocardiogram files of an export.zip (`electrocardiograms/ecg_<day>.csv`, ecg-csv.ts),
 * read beside its export: the head of each, from the zip's central directory. Any `.csv` entry of
 * the archive may be one (the folder is named in the phone's language on some phones); its head
 * tells (ecgHead), and other files are passed over unsaid.
 */
import type yauzl from 'yauzl';
import { ECG_HEAD_BYTES, type EcgHead, ecgHead } from './ecg-csv.js';

/**
 * Most ECG files read from one archive: a recording a day for over 25 years. More are not read,
 * with a warning saying how many were left.
 */
export const ECG_MAX_FILES = 10_000;

/** Largest `.csv` entry taken for an ECG file: one is some 150 KB (30 s at 512 Hz). */
const ECG_MAX_ENTRY_BYTES = 8 * 1024 * 1024;

/** Whether the archive entry `name` of `size` bytes unpacked may be an ECG file. */
export function mayBeEcgFile(name: string, size: number): boolean {
  const parts = name.split(/[\\/]/);
  const base = parts[parts.length - 1] ?? '';
  return (
    base.toLowerCase().endsWith('.csv') &&
    !base.startsWith('._') &&
    !parts.some((p) => p.toLowerCase() === '__macosx') &&
    size <= ECG_MAX_ENTRY_BYTES
  );
}

/** The first ECG_HEAD_BYTES of `entry`, unpacked; the rest is not inflated. */
function entryHead(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, rs) => {
      if (err || !rs) return reject(err ?? new Error('no stream'));
      const chunks: Buffer[] = [];
      let got = 0;
      const done = () => {
        rs.removeAllListeners('data');
        rs.on('error', () => {});
        rs.destroy();
        resolve(Buffer.concat(chunks).subarray(0, ECG_HEAD_BYTES).toString('utf8'));
      };
      rs.on('data', (c: Buffer) => {
        chunks.push(c);
        got += c.length;
        if (got >= ECG_HEAD_BYTES) done();
      });
      rs.on('end', done);
      rs.on('error', reject);
    });
  });
}

/**
 * The recordings of the ECG files among `entries` (mayBeEcgFile), in archive order, and what the
 * answer should say: files that could not be read (encrypted, damaged), files past ECG_MAX_FILES.
 * Entries that are no ECG file are passed over.
 */
export async function readEcgHeads(
  zip: yauzl.ZipFile,
  entries: readonly yauzl.Entry[],
): Promise<{ heads: EcgHead[]; warnings: string[] }> {
  const heads: EcgHead[] = [];
  const unreadable: string[] = [];
  for (const entry of entries.slice(0, ECG_MAX_FILES)) {
    if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)) {
      unreadable.push(entry.fileName);
      continue;
    }
    try {
      const head = ecgHead(await entryHead(zip, entry));
      if (head) heads.push(head);
    } catch {
      unreadable.push(entry.fileName);
    }
  }
  const warnings: string[] = [];
  if (unreadable.length > 0)
    warnings.push(
      `${unreadable.length} electrocardiogram file(s) of the zip could not be read (encrypted or damaged), not counted: ${unreadable.slice(0, 3).join(', ')}`,
    );
  if (entries.length > ECG_MAX_FILES)
    warnings.push(
      `the zip holds ${entries.length} .csv files; the first ${ECG_MAX_FILES} were read for electrocardiograms, the rest not`,
    );
  return { heads, warnings };
}
