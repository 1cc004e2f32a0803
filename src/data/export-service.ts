/**
 * Running one export of an open home: a database snapshot taken first (online backup into
 * `HEALTH_HOME/tmp/`), the manifests read from disk, then the zip streamed from the snapshot;
 * the snapshot file is removed when the stream ends, fails or is abandoned. One export at a time
 * per home (a second one is 409 EXPORT_RUNNING): each costs a full copy of the database on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { conflict } from '../errors.js';
import { appVersion } from '../home/app-version.js';
import type { HomeLayout } from '../home/home-layout.js';
import { spoolName } from '../ingest/spool-files.js';
import type { Db } from '../store/database.js';
import { backupDatabase, openSnapshot } from './db-snapshot.js';
import { type CardSource, exportFiles } from './export-files.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from './export-format.js';
import { exportZipStream } from './export-zip.js';
import { scratchDir } from './leftover-copies.js';
import { homeReminderChoices } from './reminder-settings.js';

/** This build's version (package.json), written into every export manifest. */
export { appVersion };

/** `<slug>-export-YYYYMMDD-HHMMSS.zip` (UTC): the download's file name. */
export function exportFileName(instanceName: string, at: Date): string {
  const slug =
    instanceName
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'klebb';
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${slug}-export-${stamp}.zip`;
}

/** What an export reads. */
export interface ExportSource {
  db: Db;
  layout: HomeLayout;
  instanceName: string;
  /** The cards to export (the loaded ones), read when the export starts. */
  cards: () => CardSource[];
}

/** A started export: the zip bytes and the name to offer them under. */
export interface StartedExport {
  stream: Readable;
  fileName: string;
}

/** Exports of one home, one at a time. */
export class ExportService {
  private running = false;

  constructor(private readonly src: ExportSource) {}

  /** Whether an export is streaming right now. */
  get busy(): boolean {
    return this.running;
  }

  /**
   * Takes the snapshot and starts the zip. The caller must consume or destroy the stream.
   * @throws 409 EXPORT_RUNNING while another export streams; the SQLite error when the snapshot
   *   cannot be written (disk full).
   */
  async start(now = new Date()): Promise<StartedExport> {
    if (this.running)
      throw conflict('an export is already running; try again when it has finished', 'EXPORT_RUNNING');
    this.running = true;
    // named for this process, so that a start after a crash knows the copy for a leftover
    const snapFile = path.join(scratchDir(this.src.layout.home), spoolName('sqlite'));
    let snap: Db | undefined;
    const cleanup = () => {
      try {
        snap?.close();
      } catch {
        // already closed
      }
      for (const s of ['', '-wal', '-shm', '-journal']) fs.rmSync(snapFile + s, { force: true });
      this.running = false;
    };
    try {
      const cards = this.src.cards();
      await backupDatabase(this.src.db, snapFile);
      snap = openSnapshot(snapFile);
      const { files, inventory } = exportFiles(snap, cards, this.src.layout);
      const stream = exportZipStream(
        files,
        {
          format: EXPORT_FORMAT,
          formatVersion: EXPORT_FORMAT_VERSION,
          appVersion: appVersion(),
          exportedAt: now.toISOString(),
          instanceName: this.src.instanceName,
          inventory,
          settings: { reminders: homeReminderChoices(this.src.layout.home) },
        },
        now,
      );
      let cleaned = false;
      const once = () => {
        if (!cleaned) {
          cleaned = true;
          cleanup();
        }
      };
      stream.once('end', once);
      stream.once('close', once);
      stream.once('error', once);
      return { stream, fileName: exportFileName(this.src.instanceName, now) };
    } catch (err) {
      cleanup();
      throw err;
    }
  }
}
