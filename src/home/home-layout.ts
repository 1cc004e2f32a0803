/**
 * The folders of one HEALTH_HOME. One instance,
 * one home: nothing outside it is written.
 */
import path from 'node:path';

/** Absolute paths of the parts of a home. */
export interface HomeLayout {
  home: string;
  /** Card manifests, `<id>.json`, meta only. */
  dataDir: string;
  /** `data/_meta`: feedback log and other instance metadata (not cards). */
  metaDir: string;
  /** SQLite database folder and file. */
  dbDir: string;
  dbFile: string;
  /** Markdown reports. */
  reportsDir: string;
  /** `reports/_archive`: uploaded originals and their extracted text, kept for checking and re-reading. */
  reportsArchiveDir: string;
  /** `inbox`: uploads while they arrive (transient; emptied at start-up). */
  inboxDir: string;
}

/** Computes the layout; `dataDir` may be overridden (HEALTH_DATA_DIR). */
export function homeLayout(home: string, dataDir = path.join(home, 'data')): HomeLayout {
  const dbDir = path.join(home, 'db');
  return {
    home,
    dataDir,
    metaDir: path.join(dataDir, '_meta'),
    dbDir,
    dbFile: path.join(dbDir, 'klebb.sqlite'),
    reportsDir: path.join(home, 'reports'),
    reportsArchiveDir: path.join(home, 'reports', '_archive'),
    inboxDir: path.join(home, 'inbox'),
  };
}
