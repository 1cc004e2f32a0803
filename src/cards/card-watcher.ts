/**
 * Watches the data folder so that hand edits show up (within 1 s). Built on chokidar.
 * - Events per file are debounced (WATCH_DEBOUNCE_MS) and then the file is re-read; content
 *   equal to what the registry holds is our own write and changes nothing. The
 *   debounce must outlast chokidar's 50 ms drop of repeated `change` events, so that a dropped
 *   event's write is already on disk when the file is read.
 * - A file that vanishes is dropped only if it is still gone after WATCH_SETTLE_MS, so an
 *   editor's rename-and-replace save is one change, not a delete and an add.
 */
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { WATCH_SETTLE_MS } from '../limits.js';
import type { CardLoader } from './card-loader.js';
import { isManifestFileName } from './manifest-file.js';

/** Delay after the last event on a file before it is re-read, ms. */
export const WATCH_DEBOUNCE_MS = 80;

/** A running watcher; `close()` stops it and cancels pending reloads. */
export interface CardWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Starts watching `dataDir` (top level only) and feeds changes to `loader`. */
export function watchCards(dataDir: string, loader: CardLoader, onError?: (err: Error) => void): CardWatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  /** Re-reads `file` after `delayMs`; a file missing then is gone only when `settled`, else it gets the settle window. */
  const schedule = (file: string, delayMs: number, settled = false) => {
    clearTimeout(timers.get(file));
    timers.set(
      file,
      setTimeout(() => {
        timers.delete(file);
        if (loader.safeLoad(file) !== 'missing') return;
        if (settled) loader.fileGone(file);
        else schedule(file, WATCH_SETTLE_MS, true);
      }, delayMs),
    );
  };
  const watcher: FSWatcher = watch(dataDir, {
    depth: 0,
    ignoreInitial: true,
    ignored: (p: string, stats?: { isFile(): boolean }) =>
      p !== dataDir && (stats?.isFile() ?? path.extname(p) !== '') && !isManifestFileName(path.basename(p)),
  });
  watcher.on('add', (p) => schedule(path.resolve(p), WATCH_DEBOUNCE_MS));
  watcher.on('change', (p) => schedule(path.resolve(p), WATCH_DEBOUNCE_MS));
  watcher.on('unlink', (p) => schedule(path.resolve(p), WATCH_SETTLE_MS, true));
  // a watcher error (a vanished folder, too many watches) is logged, never a crash
  watcher.on('error', (err) => onError?.(err as Error));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await watcher.close();
    },
  };
}
