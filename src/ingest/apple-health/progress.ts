/**
 * How far an Apple Health import has got: the bytes of `export.xml` read so far against the file's
 * size (the file is read once, front to back, so bytes are the honest measure), records read, and
 * an estimate of the time left from the pace so far. Shown by the web app (polled) and the script.
 * While the upload still arrives, the bytes received so far are the measure.
 */
import { KlebbError } from '../../errors.js';
import { storageFault } from '../../store/storage-faults.js';

/** One reading of an import's progress (the body of `GET /api/apple-health/import/progress`). */
export interface ImportProgressView {
  /** True while the import runs. */
  running: boolean;
  /**
   * `uploading` (the file is still arriving: nothing read yet), `reading` the file (samples stored
   * as they are read), `filling` the cards, then `done` or `failed`.
   */
  phase: 'uploading' | 'reading' | 'filling' | 'done' | 'failed';
  /**
   * Bytes of the file read so far, and its size (while `uploading`: the upload's announced
   * Content-Length, 0 when it is sent chunked).
   */
  bytesRead: number;
  totalBytes: number;
  /**
   * Bytes of the upload received so far (as sent: compressed bytes of a compressed file); grows
   * while `uploading`, then stays at the upload's size.
   */
  receivedBytes: number;
  /** `<Record>` elements read so far. */
  records: number;
  /**
   * 0–100, one decimal: bytes read over the size (100 only when done); while `uploading`, bytes
   * received over the Content-Length (0 when there is none).
   */
  percent: number;
  /** Seconds from the import's start (its upload's) to now, or to its end once it ended. */
  elapsedSeconds: number;
  /** Estimated seconds left (whole seconds), null until the pace is known (1 % read and 1 s gone). */
  etaSeconds: number | null;
  /** ISO time the import started. */
  startedAt: string;
  /** Why it failed, when it did. */
  error?: string;
  /** The error code the upload was answered with (docs/API.md "Codes"), when it failed. */
  code?: string;
}

/**
 * Seconds left at the pace so far, or null while too little is known to say.
 * @param elapsedMs time spent; `fraction` share of the work done (0–1).
 */
export function etaSeconds(elapsedMs: number, fraction: number): number | null {
  if (!(fraction >= 0.01) || elapsedMs < 1000) return null;
  if (fraction >= 1) return 0;
  return Math.round(((elapsedMs / fraction) * (1 - fraction)) / 1000);
}

/**
 * An import whose file is still arriving (the upload route's first state, so the progress route
 * never shows the previous import meanwhile); `end(error)` when the upload fails.
 */
export function uploadingProgress(expectedBytes: number): ImportProgress {
  const p = new ImportProgress(expectedBytes);
  p.uploading();
  return p;
}

/** The progress of one import, updated by the importer; `view()` reads it. */
export class ImportProgress {
  private readonly startedAt: string;
  /** When end() was called (the elapsed time stops there). */
  private ended: number | undefined;
  private phase: ImportProgressView['phase'] = 'reading';
  private bytesRead = 0;
  private records = 0;
  private error: string | undefined;
  private code: string | undefined;
  private receivedBytes = 0;
  /** The phase end() was called in (a failed upload reports its bytes received). */
  private endedIn: ImportProgressView['phase'] | undefined;

  /**
   * @param totalBytes the file's size.
   * @param started when the import began, ms since the epoch (its upload's start, when the file
   *   had to arrive first: the progress then goes on from the upload's).
   */
  constructor(
    readonly totalBytes: number,
    readonly started = Date.now(),
  ) {
    this.startedAt = new Date(started).toISOString();
  }

  /** The file is still arriving (see uploadingProgress). */
  uploading(): void {
    this.phase = 'uploading';
  }

  /** Notes the bytes of the upload received so far. */
  received(bytes: number): void {
    this.receivedBytes = bytes;
  }

  /** Notes how far reading got. */
  read(bytesRead: number, records: number): void {
    this.bytesRead = Math.min(bytesRead, this.totalBytes);
    this.records = records;
  }

  /** The file is read; the cards are being filled. */
  filling(): void {
    this.phase = 'filling';
    this.bytesRead = this.totalBytes;
  }

  /** The import ended: `error` when it failed. */
  end(error?: unknown): void {
    this.ended ??= Date.now();
    if (this.running) this.endedIn = this.phase;
    this.phase = error === undefined ? 'done' : 'failed';
    if (error === undefined) return;
    this.error = error instanceof Error ? error.message : String(error);
    this.code = error instanceof KlebbError ? error.code : (storageFault(error)?.code ?? 'INTERNAL');
  }

  /** True until end(). */
  get running(): boolean {
    return this.phase === 'uploading' || this.phase === 'reading' || this.phase === 'filling';
  }

  /** The progress now. */
  view(now = Date.now()): ImportProgressView {
    const elapsed = (this.ended ?? now) - this.started;
    const done = this.phase === 'done';
    const uploading = this.phase === 'uploading' || (this.phase === 'failed' && this.endedIn === 'uploading');
    // an upload that failed before its file was read says how much of it had arrived, not 99.9 %
    const part = uploading ? this.receivedBytes : this.bytesRead;
    const fraction = this.totalBytes > 0 ? Math.min(1, part / this.totalBytes) : 0;
    // a refused upload (nothing of it read) is 0 %, not the share that arrived before it was refused
    const refused = this.phase === 'failed' && this.endedIn === 'uploading';
    const percent = done ? 100 : refused ? 0 : Math.min(99.9, Math.floor(fraction * 1000) / 10);
    return {
      running: this.running,
      phase: this.phase,
      bytesRead: this.bytesRead,
      totalBytes: this.totalBytes,
      receivedBytes: this.receivedBytes,
      records: this.records,
      percent,
      elapsedSeconds: Math.round(elapsed / 1000),
      etaSeconds: done ? 0 : this.phase === 'reading' ? etaSeconds(elapsed, fraction) : null,
      startedAt: this.startedAt,
      ...(this.error !== undefined ? { error: this.error, code: this.code } : {}),
    };
  }
}

/** `1 h 5 min`, `3 min 20 s`, `45 s`: a duration for people. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** `12.3 MB`, `1.25 GB`: a size for people (10^6 / 10^9 bytes). */
function formatBytes(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(1)} MB`;
}

/** One line for a terminal: `42.3 % · 1.21 of 2.90 GB · 1 523 000 records · about 1 min 10 s left`. */
export function progressLine(v: ImportProgressView): string {
  const parts = [
    `${v.percent.toFixed(1)} %`,
    `${formatBytes(v.bytesRead)} of ${formatBytes(v.totalBytes)}`,
    `${v.records} records`,
  ];
  if (v.phase === 'filling') parts.push('filling the cards');
  else if (v.etaSeconds !== null && v.running) parts.push(`about ${formatDuration(v.etaSeconds)} left`);
  return parts.join(' · ');
}
