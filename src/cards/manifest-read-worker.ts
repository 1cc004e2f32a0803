/**
 * The worker thread that reads one large manifest file for the loader (large-file-read.ts starts
 * it), so that reading, checking and parsing tens of megabytes never holds the server's event
 * loop: it reads the bytes, checks them as the loader does (manifest-read.ts), splits off the
 * `data` block, brings it to today's shape (data-normalise.ts) and turns each row into the JSON
 * text the store keeps. When the file carries data it also writes the backup the loader keeps of
 * an imported file. It posts one LargeReadResult and ends.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { writeFileAtomic } from '../home/atomic-write.js';
import { MAX_CHANGE_IMAGE_BYTES } from '../limits.js';
import { normaliseImportedData } from './data-normalise.js';
import type { LargeReadJob, LargeReadResult, PreparedData } from './large-file-read.js';
import { contentHash, splitData } from './manifest-file.js';
import { readManifestBytes } from './manifest-read.js';

function stampOf(file: string): string | undefined {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : undefined;
}

/** The rows as one UTF-8 buffer with the end offset of each; the whole list's JSON when small enough to log. */
function packRows(rows: unknown[]): PreparedData {
  const texts = rows.map((r) => JSON.stringify(r ?? null));
  const ends = new Uint32Array(texts.length);
  let bytes = 0;
  let chars = texts.length > 0 ? texts.length + 1 : 2;
  for (let i = 0; i < texts.length; i++) {
    bytes += Buffer.byteLength(texts[i]);
    chars += texts[i].length;
    ends[i] = bytes;
  }
  // never from the shared pool: the buffer is handed over to the loader whole
  const buf = Buffer.allocUnsafeSlow(bytes);
  let at = 0;
  for (const t of texts) at += buf.write(t, at);
  // the change log keeps a copy of the list only up to its limit (JSON.stringify's length)
  const after = chars <= MAX_CHANGE_IMAGE_BYTES ? `[${texts.join(',')}]` : undefined;
  return { kind: 'rows', buf, ends, after };
}

function read(job: LargeReadJob): LargeReadResult {
  const stamp = stampOf(job.file);
  if (stamp === undefined) return { kind: 'missing' };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(job.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'error', message: `cannot read file: ${(err as Error).message}` };
  }
  // saved again while it was read: the watcher brings the newer bytes next
  if (stampOf(job.file) !== stamp) return { kind: 'changing' };
  const hash = contentHash(bytes);
  if (hash === job.knownHash) return { kind: 'unchanged' };
  const parsed = readManifestBytes(bytes);
  if (!parsed.ok) return { kind: 'problem', problem: parsed.problem };
  const { body, hasData, data } = splitData(parsed.obj);
  if (!hasData) return { kind: 'parsed', hash, stamp, body, rescued: false };
  const incoming = normaliseImportedData(data);
  const prepared: PreparedData = Array.isArray(incoming.data)
    ? packRows(incoming.data)
    : { kind: 'value', value: incoming.data };
  // the original as it was dropped in (its own encoding)
  writeFileAtomic(job.backup, bytes);
  return { kind: 'parsed', hash, stamp, body, rescued: incoming.rescued, data: prepared, backup: job.backup };
}

function errorResult(err: unknown): LargeReadResult {
  return { kind: 'error', message: `could not load: ${(err as Error)?.message ?? String(err)}` };
}

if (parentPort) {
  let result: LargeReadResult;
  try {
    result = read(workerData as LargeReadJob);
  } catch (err) {
    result = errorResult(err);
  }
  const transfer =
    result.kind === 'parsed' && result.data?.kind === 'rows'
      ? [result.data.buf.buffer as ArrayBuffer, result.data.ends.buffer as ArrayBuffer]
      : [];
  parentPort.postMessage(result, transfer);
}
