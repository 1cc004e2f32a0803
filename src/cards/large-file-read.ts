/**
 * Reading a large manifest file off the event loop: a worker thread (manifest-read-worker.ts)
 * reads, checks and parses it and hands back the meta-only body and the rows as JSON texts, so
 * the loader only has to store them (in slices) and place the card. What counts as large is
 * LARGE_MANIFEST_BYTES; smaller files are read on the event loop, where a worker would cost more
 * than it saves.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { LARGE_MANIFEST_BYTES } from '../limits.js';
import { workerScriptUrl } from '../worker-script.js';
import type { ManifestBody } from './manifest-file.js';
import type { BytesProblem } from './manifest-read.js';

/** What the worker is asked (its `workerData`). */
export interface LargeReadJob {
  file: string;
  /** The hash of the bytes the loaded card came from: the same bytes again are 'unchanged'. */
  knownHash?: string;
  /** Where to keep a copy of the file when it carries data (the import's backup). */
  backup: string;
}

/** A file's data block made ready to store: rows as JSON texts (UTF-8, one after another), or one value. */
export type PreparedData =
  | {
      kind: 'rows';
      buf: Uint8Array;
      /** Byte offset in `buf` where each row's text ends. */
      ends: Uint32Array;
      /** The whole list's JSON, when within the change log's limit. */
      after?: string;
    }
  | { kind: 'value'; value: unknown };

/** What the worker found. */
export type LargeReadResult =
  | { kind: 'missing' }
  /** The file was saved again while it was read. */
  | { kind: 'changing' }
  | { kind: 'unchanged' }
  | { kind: 'error'; message: string }
  | { kind: 'problem'; problem: BytesProblem }
  | {
      kind: 'parsed';
      hash: string;
      /** Inode, size and modification time (ns) of the file read: the same stamp later means the same bytes. */
      stamp: string;
      body: ManifestBody;
      rescued: boolean;
      data?: PreparedData;
      /** The backup written (when the file carries data). */
      backup?: string;
    };

/**
 * Whether `file` is large enough to be read by the worker. A file that cannot be looked at (a
 * symbolic link loop, ELOOP; no permission) is not: the loader reads it and reports why.
 */
export function isLargeFile(file: string): boolean {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return st?.isFile() === true && st.size >= LARGE_MANIFEST_BYTES;
  } catch {
    return false;
  }
}

/** The stamp of `file` as the worker takes it (undefined when gone). */
export function fileStamp(file: string): string | undefined {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : undefined;
}

/** The text of row `i` of prepared rows. */
export function rowText(buf: Buffer, ends: Uint32Array, i: number): string {
  return buf.toString('utf8', i === 0 ? 0 : ends[i - 1], ends[i]);
}

/** Reads `job.file` in a worker thread. Never rejects: a failure is an 'error' result. */
export function readLargeFile(job: LargeReadJob): Promise<LargeReadResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: LargeReadResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    let worker: Worker;
    try {
      worker = new Worker(workerScriptUrl('./manifest-read-worker.js', import.meta.url), { workerData: job });
    } catch (err) {
      settle({ kind: 'error', message: `could not load: ${(err as Error).message}` });
      return;
    }
    worker.once('message', (m: LargeReadResult) => settle(m));
    worker.once('error', (err) => settle({ kind: 'error', message: `could not load: ${err.message}` }));
    worker.once('exit', (code) =>
      settle({ kind: 'error', message: `could not load: the reading thread ended (code ${code})` }),
    );
  });
}
