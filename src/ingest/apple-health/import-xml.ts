/**
 * Importing Apple Health's `export.xml` into the samples store (docs/HEALTH-AUTO-EXPORT.md
 * "Loading your history from Apple Health"). The file is read and its samples stored by a worker
 * thread (import-worker.ts, read-export.ts) on its own connection to the database, so the
 * server's event loop stays free for other requests during an import of gigabytes; this thread
 * relays its progress, then fills the subscribed cards with the rows the worker computed and
 * records the push, in one transaction, as after a webhook push.
 *
 * What stays the same as an import on the main thread: samples are stored as they are read (each
 * batch its own transaction, kept when a later step fails, added once whatever is imported
 * again), the push record is written only when the whole file was read, and an error of the
 * worker (an unreadable file, a full disk) is thrown here as it was thrown there. The samples an
 * import that failed part way kept still reach the cards (HaeIngest.settleFailedPush): importing
 * the file again finds them stored and would not fill them.
 */

import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lookupTable } from '../../common/lookup-table.js';
import { invalid, KlebbError } from '../../errors.js';
import { STORAGE_BUSY_RETRY_AFTER_S } from '../../limits.js';
import { StorageBusyError, storageFault } from '../../store/storage-faults.js';
import { workerScriptUrl } from '../../worker-script.js';
import { subscriptions } from '../hae/cards.js';
import type { MetricBlock } from '../hae/format/payload.js';
import {
  APPLE_HEALTH_ORIGIN,
  type HaeIngest,
  type PreparedFill,
  type PushRunState,
  type PushSummary,
} from '../hae/service.js';
import { spoolName } from '../spool-files.js';
import { nonTextKind } from './file-kind.js';
import type { ImportJob, ImportWorkerMessage, WorkerError } from './import-worker.js';
import { ImportProgress } from './progress.js';
import type { ExportRead } from './read-export.js';

/** What an import did. */
export interface AppleHealthImport extends PushSummary {
  /** `<Record>` elements read (top level; records inside a `<Correlation>` are duplicates and skipped). */
  records: number;
  /** `<Workout>` elements read. */
  workouts: number;
  /** Records of types without a catalogue metric, per type (not stored). */
  unmappedTypes: Record<string, number>;
  /** XML well-formedness problems saxes reported (parsing went on after each). */
  xmlErrors: number;
  /**
   * True when the file ends before its `</HealthData>`: it was cut short and is most likely
   * incomplete (the records read up to the cut are imported; the first warning says so).
   */
  truncated: boolean;
  /** The line of the last tag read before the file turned out damaged (read-export.ts), or null. */
  damagedAtLine: number | null;
  /** `{cardId: rowsWritten}` of the subscribed cards filled. */
  ingested: Record<string, number>;
  /** The export's `<ExportDate value>`, when present. */
  exportDate: string | null;
}

/** The worker's script (see workerScriptUrl). */
export function importWorkerUrl(): URL {
  return workerScriptUrl('./import-worker.js', import.meta.url);
}

/**
 * The worker's V8 heap, MB. Left to itself V8 lets a thread that allocates this fast grow its
 * heap to ~100 MB of mostly garbage; what the import keeps alive is ~20 MB (a batch of samples,
 * the chunk being parsed, a group of dates' samples while the cards' rows are made; the tables
 * of identical-sample counts live outside the heap, see occurrence-windows.ts). The old
 * generation is capped to keep the import's memory flat. The young generation is not made tiny:
 * nearly everything the parse allocates dies young, and with a 4 MB young generation the
 * scavenges that result cost a quarter of the worker's time; 16 MB (V8 splits it into its
 * semi-spaces) cut the import's CPU by about a fifth, measured, for some 15 MB more at its peak.
 * Reaching the limit ends the worker: the import then fails with a clear error (500 INTERNAL) and
 * nothing but stored samples (and the card rows made from them) is kept.
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 16 };

/** The error a worker reported, thrown again as what it was (a KlebbError, a storage fault). */
function rethrown(e: WorkerError): Error {
  if (e.status !== undefined && e.klebbCode !== undefined)
    return new KlebbError(e.status, e.klebbCode, e.message);
  const err = new Error(e.message) as Error & { code?: string };
  if (e.code !== undefined) err.code = e.code;
  if (e.stack) err.stack = e.stack;
  return err;
}

/** What the worker handed back. */
interface WorkerResult {
  read: ExportRead;
  state: PushRunState;
  fills: Map<string, PreparedFill>;
}

/**
 * Runs the reading part in a worker thread, relaying its progress.
 * @throws the worker's error; a worker that dies without answering is 500 INTERNAL, saying the
 *   samples stored so far are kept and the cards were not filled.
 */
function readInWorker(
  job: ImportJob,
  progress: ImportProgress,
  onOpened: (o: { pushId: number; afterId: number }) => void,
): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(importWorkerUrl(), { workerData: job, resourceLimits: WORKER_HEAP });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    const died = (why: string) =>
      new KlebbError(
        500,
        'INTERNAL',
        `the import stopped unexpectedly (${why}): the samples read until then are kept and shown on the cards; import the file again to add the rest`,
      );
    worker.on('message', (m: ImportWorkerMessage) => {
      if (m.kind === 'progress') progress.read(m.bytesRead, m.records);
      else if (m.kind === 'opened') onOpened(m);
      else if (m.kind === 'done') settle(() => resolve(m));
      else settle(() => reject(rethrown(m.error)));
    });
    worker.on('error', (err) => settle(() => reject(died(err.message))));
    worker.on('exit', (code) => settle(() => reject(died(`the worker thread exited with code ${code}`))));
  });
}

/** What the unmapped records are: `N record(s) ...: TypeA (n), TypeB (m)`, the commonest 8 named. */
function unmappedLine(unmapped: Record<string, number>): string | undefined {
  const total = Object.values(unmapped).reduce((a, b) => a + b, 0);
  if (!total) return undefined;
  const top = Object.entries(unmapped)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 8)
    .map(([t, n]) => `${t} (${n})`)
    .join(', ');
  return `${total} record(s) of types with no catalogue metric were not stored: ${top}`;
}

/**
 * The import's own warning lines, the most serious first: a file cut short (what was imported is
 * only part of it), a file that does not look like an export, points that could not be read (one
 * line per metric and reason over the whole file, most points first), XML problems, then the
 * records of types Klebb keeps no metric for.
 */
export function importWarnings(read: ExportRead): string[] {
  const out: string[] = [];
  if (read.truncated) {
    out.push(
      `the file was cut short: it ends before its last line (</HealthData>), so it is most likely incomplete (a download or copy that stopped). The ${read.records} record(s) read up to the cut were imported; export again from the Health app and import the whole file (readings already here are not added twice)`,
    );
  }
  if (read.damagedAtLine !== null) {
    out.push(
      `the file is damaged after line ${read.damagedAtLine}: what follows is not XML, or a tag there never ends (a quote or '>' is missing), so reading stopped there. The ${read.records} record(s) before it were imported; export again from the Health app and import the new file (readings already here are not added twice)`,
    );
  }
  if (!read.sawHealthData)
    out.push('no <HealthData> element: this does not look like an Apple Health export.xml');
  out.push(...read.skipLines, ...read.xmlProblems);
  if (read.xmlErrorsUnlisted) out.push(`... ${read.xmlErrorsUnlisted} more XML problem(s)`);
  if (read.bareAmpersands > 0)
    out.push(
      `${read.bareAmpersands} '&' character(s) not written as '&amp;' (not valid XML) were read as '&'`,
    );
  const unmapped = unmappedLine(read.unmappedTypes);
  if (unmapped) out.push(unmapped);
  return out;
}

/**
 * Imports an export.xml file as one push of origin `apple-health`, then fills the subscribed
 * cards. The file is read in a worker thread (see the module comment), so the event loop of the
 * calling thread stays free meanwhile.
 * @param file path of `export.xml` (UTF-8).
 * @param progress updated as the file is read (bytes, records, phase); ended by the caller.
 * @param uploadWarnings what unpacking the upload found (a zip cut short): the answer's first
 *   warnings.
 * @param extraBlocks what the zip held beside the export, read as blocks (its electrocardiograms,
 *   ecg-csv.ts): stored in the same push as the export's records.
 * @throws when the file cannot be read or stored (the worker's error, as it was thrown); 422
 *   NOT_AN_EXPORT when it holds no `<HealthData>` and no record. XML problems are warnings.
 * @returns the push summary plus the import's own counts.
 */
export async function importAppleHealthFile(
  svc: HaeIngest,
  file: string,
  progress: ImportProgress = new ImportProgress(fs.statSync(file).size),
  uploadWarnings: string[] = [],
  extraBlocks: MetricBlock[] = [],
): Promise<AppleHealthImport> {
  // an earlier import that failed and could not be settled then (the database locked) first
  svc.settleFailed();
  let opened: { pushId: number; afterId: number } | undefined;
  try {
    return await importWithWorker(svc, file, progress, uploadWarnings, extraBlocks, (o) => {
      opened = o;
    });
  } catch (err) {
    if (!opened) throw err;
    // the samples stored until the failure stay, and reach their cards
    const shown = svc.settleFailedPush(opened.pushId, opened.afterId);
    throw stoppedImportFault(err, progress.view().records, shown);
  }
}

/** What each storage fault's answer names as the cause, for an import it stopped. */
const STOPPED_BY: Record<string, string> = {
  DISK_FULL: 'the disk is full',
  STORAGE_BUSY: 'another program held the database locked too long',
  NOT_SAVED: 'the disk refused a write',
};

/**
 * A storage fault (507, 503) that stopped an import, worded for it: the generic answer says
 * nothing was changed, which is not so here, since the samples stored before it stay. Any other
 * error is returned as it is (a worker's death already says so).
 */
function stoppedImportFault(err: unknown, records: number, shown: boolean): unknown {
  const fault = storageFault(err);
  const cause = fault && STOPPED_BY[fault.code];
  if (!fault || !cause) return err;
  const where = shown
    ? 'and shown on the cards'
    : 'and reach the cards with the next import or phone push, or at the next start';
  const retry =
    fault.code === 'STORAGE_BUSY'
      ? `try again in ${fault instanceof StorageBusyError ? fault.retryAfterSeconds : STORAGE_BUSY_RETRY_AFTER_S} s`
      : fault.code === 'DISK_FULL'
        ? 'free some space, then import the file again'
        : 'import the file again later';
  fault.message = `${cause}: the import stopped after reading ${records} record(s). The samples it stored until then are kept ${where}; ${retry} (only the rest is added)`;
  return fault;
}

/**
 * Files of the Health app's export.zip other than the export, by their first element: uploaded
 * alone, each is named, so the person knows which file to take instead.
 */
const SIDE_FILES = lookupTable<string>({
  ClinicalDocument: 'export_cda.xml, the clinical document beside the export',
  gpx: 'a workout route (workout-routes/*.gpx)',
});

/**
 * The 422 message for a file with no `<HealthData>`: its kind when it is no text (a PDF, a
 * photo), what it is when it is another file of the export, else the element it starts with,
 * then which file to upload.
 */
function notAnExport(root: string | null, kind: string | null): string {
  const what = kind
    ? `it is ${kind === 'not a text file' ? 'not a text file, so not XML' : `${kind}, not XML`}`
    : root === null
      ? 'no <HealthData> element, nor any other: it is not XML'
      : (SIDE_FILES[root] ?? `its first element is <${root}>, not <HealthData>`);
  return `this is not an Apple Health export.xml (${what}): upload export.zip as the Health app made it, or the export.xml inside it`;
}

/** importAppleHealthFile; `onOpened` hears of the push row the worker opened. */
async function importWithWorker(
  svc: HaeIngest,
  file: string,
  progress: ImportProgress,
  uploadWarnings: string[],
  extraBlocks: MetricBlock[],
  onOpened: (o: { pushId: number; afterId: number }) => void,
): Promise<AppleHealthImport> {
  const bytes = progress.totalBytes;
  const subs = subscriptions(svc.cards).map((s): [string, string] => [s.cardId, s.entry.key]);
  const countsFile = path.join(svc.dirs.uploads, spoolName('counts'));
  const { read, state, fills } = await readInWorker(
    {
      dbFile: svc.samples.file,
      file,
      bytes,
      // in the uploads folder, its left-overs removed at every start; removed here too should the worker die
      countsFile,
      subscriptions: subs,
      timeZone: svc.samples.timeZone(),
      extraBlocks,
    },
    progress,
    onOpened,
  ).finally(() => fs.rmSync(countsFile, { force: true }));
  progress.read(bytes, read.records);

  // refused before the push is recorded: a file that is not an export leaves no trace
  if (!read.sawHealthData && read.records === 0 && read.workouts === 0) {
    throw invalid(notAnExport(read.rootElement, nonTextKind(file)), undefined, 'NOT_AN_EXPORT');
  }
  const run = svc.resumePush(APPLE_HEALTH_ORIGIN, bytes, state);
  for (const line of [...uploadWarnings, ...importWarnings(read)]) run.warn(line);
  progress.filling();
  const summary = await run.finishInSteps(fills);
  return {
    ...summary,
    records: read.records,
    workouts: read.workouts,
    unmappedTypes: read.unmappedTypes,
    xmlErrors: read.xmlErrors,
    truncated: read.truncated,
    damagedAtLine: read.damagedAtLine,
    exportDate: read.exportDate,
  };
}
