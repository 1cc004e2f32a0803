/**
 * Watches the data folder so that hand edits show up (within 1 s). Built on chokidar.
 * - Events per file are debounced (WATCH_DEBOUNCE_MS) and then the file is re-read; content
 *   equal to what the registry holds is our own write and changes nothing. The
 *   debounce must outlast chokidar's 50 ms drop of repeated `change` events, so that a dropped
 *   event's write is already on disk when the file is read.
 * - A file that vanishes is dropped only if it is still gone after WATCH_SETTLE_MS, so an
 *   editor's rename-and-replace save is one change, not a delete and an add.
 * - A large file (LARGE_MANIFEST_BYTES) is loaded off the event loop (CardLoader.loadLarge), so
 *   the server keeps answering meanwhile; a change made while it loads is judged once it is done.
 * - The data folder itself may be replaced: renamed away and a new one put in its place (a
 *   restore from a backup, a sync tool, a `git checkout`, a symlinked folder pointed elsewhere).
 *   A watch stays on the folder it was set on, so it would go silent for good; the folder's
 *   identity (device and inode) is checked every DATA_DIR_CHECK_MS, and a new folder gets a new
 *   watch and every file in it (and every card whose file it lacks) is judged again. The same
 *   folder brought back (moved away and back, a volume unmounted and mounted again) has the same
 *   identity, but its watch ended when it left: a folder once seen gone is watched again too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { LARGE_MANIFEST_BYTES, MANIFEST_SETTLE_MS, WATCH_SETTLE_MS } from '../limits.js';
import type { CardLoader } from './card-loader.js';
import { isLargeFile } from './large-file-read.js';
import { isManifestFileName } from './manifest-file.js';
import { parseManifestLoosely } from './manifest-text.js';
import { WATCH_POLL_MS } from './watch-mode.js';

/** How often the data folder is checked for having been replaced by another folder, ms. */
export const DATA_DIR_CHECK_MS = 500;

/** Delay after the last event on a file before it is re-read, ms. */
export const WATCH_DEBOUNCE_MS = 80;

/**
 * How much longer to wait before judging `file`, ms: 0 when it reads as a whole manifest (a
 * JSON object with `$schema`), is gone, or has been quiet for MANIFEST_SETTLE_MS; otherwise the
 * rest of that window since its last change. An editor saving in steps never makes a card look
 * broken or vanish for a moment.
 */
export function settlingFor(file: string, now = Date.now()): number {
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    const st = fs.statSync(file);
    // a FIFO or device named *.json would block the whole server on read: the loader reports it
    if (!st.isFile()) return 0;
    mtimeMs = st.mtimeMs;
    // a large file is not parsed here (that would hold the server): it waits for the quiet window
    if (st.size >= LARGE_MANIFEST_BYTES) return quietLeft(mtimeMs, now);
    bytes = fs.readFileSync(file);
  } catch {
    return 0;
  }
  // not whole yet, or broken: the quiet window decides
  const v = parseManifestLoosely(bytes);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, '$schema')) return 0;
  return quietLeft(mtimeMs, now);
}

/** What is left of MANIFEST_SETTLE_MS since a file's last change (at least 20 ms), or 0. */
function quietLeft(mtimeMs: number, now: number): number {
  const left = MANIFEST_SETTLE_MS - (now - mtimeMs);
  return left > 0 ? Math.max(20, left) : 0;
}

/** Device and inode of the folder at `dir` (following a symlink), or null when there is none. */
function folderIdentity(dir: string): string | null {
  try {
    const st = fs.statSync(dir);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/** The manifest files directly in `dir` (absolute paths, by name); none when it cannot be read. */
function manifestFilesIn(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => !d.isDirectory() && isManifestFileName(d.name))
      .map((d) => path.resolve(dir, d.name))
      .sort();
  } catch {
    return [];
  }
}

/** A running watcher; `close()` stops it and cancels pending reloads. */
export interface CardWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts watching `dataDir` (top level only) and feeds changes to `loader`. With `poll`, its
 * files are looked at every WATCH_POLL_MS instead of waiting for change notices (a folder on a
 * network or shared file system: watch-mode.ts).
 */
export function watchCards(
  dataDir: string,
  loader: CardLoader,
  onError?: (err: Error) => void,
  opts: { poll?: boolean } = {},
): CardWatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;
  /** Files a worker is loading (loadLarge), and those changed again meanwhile (judged again after). */
  const loading = new Set<string>();
  const again = new Set<string>();
  /** What to do once a file read as missing: gone when `settled`, else wait for the settle window. */
  const missing = (file: string, settled: boolean) => {
    if (settled) loader.fileGone(file);
    else schedule(file, WATCH_SETTLE_MS, true);
  };
  /** Loads a large file off the event loop; one change at a time per file. */
  const loadLarge = (file: string, settled: boolean) => {
    loading.add(file);
    void loader.loadLarge(file).then((outcome) => {
      loading.delete(file);
      if (closed) return;
      if (again.delete(file)) schedule(file, WATCH_DEBOUNCE_MS);
      else if (outcome === 'missing') missing(file, settled);
    });
  };
  /** Reads `file` now, unless it is mid-save (a file cut short, or without its $schema yet): then once it is quiet. */
  const judge = (file: string, settled: boolean) => {
    const wait = settlingFor(file);
    if (wait > 0) return schedule(file, wait, settled);
    if (isLargeFile(file)) return loadLarge(file, settled);
    if (loader.safeLoad(file) === 'missing') missing(file, settled);
  };
  /** Re-reads `file` after `delayMs`; a file missing then is gone only when `settled`, else it gets the settle window. */
  const schedule = (file: string, delayMs: number, settled = false) => {
    clearTimeout(timers.get(file));
    timers.set(
      file,
      setTimeout(() => {
        timers.delete(file);
        if (loading.has(file)) {
          again.add(file);
          return;
        }
        // no file system error may escape a timer: it would end the whole server
        try {
          judge(file, settled);
        } catch (err) {
          onError?.(err as Error);
        }
      }, delayMs),
    );
  };
  const start = (): FSWatcher => {
    const w = watch(dataDir, {
      depth: 0,
      ignoreInitial: true,
      usePolling: opts.poll === true,
      interval: WATCH_POLL_MS,
      binaryInterval: WATCH_POLL_MS,
      ignored: (p: string, stats?: { isFile(): boolean }) =>
        p !== dataDir && (stats?.isFile() ?? path.extname(p) !== '') && !isManifestFileName(path.basename(p)),
    });
    w.on('add', (p) => schedule(path.resolve(p), WATCH_DEBOUNCE_MS));
    w.on('change', (p) => schedule(path.resolve(p), WATCH_DEBOUNCE_MS));
    w.on('unlink', (p) => schedule(path.resolve(p), WATCH_SETTLE_MS, true));
    // chokidar reports no change when a file is renamed over a card file and has the same time
    // stamp as the one it replaces (two files swapped with `mv`, a restore that keeps the time
    // stamps of files saved in the same second); the folder's own event names the file, so any
    // event on a card file's name gets it read again (bytes equal to the card's change nothing)
    w.on('raw', (_event, name, details) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof name !== 'string' || typeof watched !== 'string' || path.resolve(watched) !== dataDir)
        return;
      // an iCloud placeholder (`.weight.json.icloud`) coming or going concerns its card file: one
      // that goes without the file coming back means the file was deleted in iCloud
      const inCloud = /^\.(.+)\.icloud$/.exec(name)?.[1];
      const file = path.resolve(
        dataDir,
        inCloud !== undefined && isManifestFileName(inCloud) ? inCloud : name,
      );
      if (path.dirname(file) === dataDir && isManifestFileName(path.basename(file))) {
        schedule(file, WATCH_DEBOUNCE_MS);
      }
    });
    // the folder itself left (moved away, removed, unmounted): this watch is over for good
    w.on('unlinkDir', (p) => {
      if (path.resolve(p) === dataDir) lost = true;
    });
    // a watcher error (a vanished folder, too many watches) is logged, never a crash
    w.on('error', (err) => onError?.(err as Error));
    return w;
  };
  /** Set once the data folder was seen gone: whatever folder is there next needs a new watch. */
  let lost = false;
  let watcher = start();
  /** A new folder at dataDir: watch it, then judge its files and the cards whose files it lacks. */
  const rewatch = async () => {
    const old = watcher;
    watcher = start();
    const fresh = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    await old.close().catch(() => undefined);
    await fresh;
    if (closed) return;
    const present = manifestFilesIn(dataDir);
    for (const file of present) schedule(file, WATCH_DEBOUNCE_MS);
    for (const file of loader.knownFiles()) if (!present.includes(file)) schedule(file, WATCH_SETTLE_MS);
  };
  let identity = folderIdentity(dataDir);
  const check = setInterval(() => {
    const now = folderIdentity(dataDir);
    if (now === null) lost = true;
    if (now === null || (now === identity && !lost)) return;
    identity = now;
    lost = false;
    void rewatch();
  }, DATA_DIR_CHECK_MS);
  check.unref();
  // a polled folder's own time stamp may not move when a file is added or removed on the other
  // side (a share's cached attributes, a host's shared folder), and the watch looks for new
  // names only when it does: the names are compared here too
  let listed = opts.poll ? manifestFilesIn(dataDir) : [];
  const relist = opts.poll
    ? setInterval(() => {
        const now = manifestFilesIn(dataDir);
        for (const file of now) if (!listed.includes(file)) schedule(file, WATCH_DEBOUNCE_MS);
        for (const file of listed) if (!now.includes(file)) schedule(file, WATCH_SETTLE_MS, true);
        listed = now;
      }, WATCH_POLL_MS)
    : undefined;
  relist?.unref();
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      closed = true;
      clearInterval(check);
      clearInterval(relist);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await watcher.close();
    },
  };
}
