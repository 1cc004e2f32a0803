/**
 * The uploaded reports on disk: `reports/<name>.md` (the state), `reports/_archive/<name>.<ext>`
 * (the original) and `reports/_archive/<name>.extracted.txt` (its extracted text). Names are
 * `<upload day>-<stem>`, with `-2`, `-3` ... on a collision; a name is claimed by creating its
 * `.md` exclusively (`wx`), so two uploads of one file name never share or clobber a report.
 * The quota counts uploaded reports plus uploads still arriving (reservations), so two uploads
 * racing for the last slot cannot both land.
 */

import fs from 'node:fs';
import path from 'node:path';
import { todayIn } from '../common/dates.js';
import { conflict } from '../errors.js';
import type { HomeLayout } from '../home/home-layout.js';
import { processingBody } from './report-body.js';
import { parseReport, type ReportHeader, renderReport, writeFileAtomic } from './report-file.js';
import type { UploadName } from './upload-name.js';

/** An uploaded report's name: lower-case letters, digits and hyphens. */
export const UPLOADED_NAME = /^[a-z0-9][a-z0-9-]{0,80}$/;

/** One uploaded report as read from its file. */
export interface StoredReport {
  name: string;
  header: ReportHeader;
  body: string;
}

/** Reads and writes the uploaded reports of one home. */
export class ReportStore {
  private reserved = 0;

  constructor(
    readonly layout: Pick<HomeLayout, 'reportsDir' | 'reportsArchiveDir' | 'inboxDir'>,
    readonly max: number,
  ) {}

  /**
   * Creates the folders and empties the inbox (uploads cut off by a restart). The inbox folder
   * itself stays: it may be a mount point or a link to another disk, which removing it would
   * fail on (EBUSY, stopping the start) or replace with a folder on the home's disk. An entry that
   * may not be removed (another user's) stays.
   */
  prepare(): void {
    fs.mkdirSync(this.layout.reportsArchiveDir, { recursive: true });
    fs.mkdirSync(this.layout.inboxDir, { recursive: true });
    for (const name of fs.readdirSync(this.layout.inboxDir)) {
      try {
        fs.rmSync(path.join(this.layout.inboxDir, name), { recursive: true, force: true });
      } catch {
        // left by another user (a folder root made there): an upload takes a name of its own,
        // so what cannot be removed is passed over rather than stopping the start
      }
    }
  }

  private mdFile(name: string) {
    return path.join(this.layout.reportsDir, `${name}.md`);
  }

  /** Every uploaded report (hand-written ones are skipped), newest upload first. */
  list(): StoredReport[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.layout.reportsDir).filter((n) => n.endsWith('.md') && !n.startsWith('.'));
    } catch {
      return [];
    }
    const out: StoredReport[] = [];
    for (const file of names) {
      const name = file.slice(0, -3);
      const r = this.read(name);
      if (r) out.push(r);
    }
    return out.sort(
      (a, b) => b.header.ingested_at.localeCompare(a.header.ingested_at) || a.name.localeCompare(b.name),
    );
  }

  /** One uploaded report, or null (unknown name, hand-written, unreadable). */
  read(name: string): StoredReport | null {
    if (!UPLOADED_NAME.test(name)) return null;
    let text: string;
    try {
      text = fs.readFileSync(this.mdFile(name), 'utf8');
    } catch {
      return null;
    }
    const parsed = parseReport(text);
    return parsed ? { name, ...parsed } : null;
  }

  /** Whether a report file (uploaded or hand-written) of that name exists. */
  exists(name: string): boolean {
    return fs.existsSync(this.mdFile(name));
  }

  /** Uploaded reports plus uploads in flight. */
  used(): number {
    return this.list().length + this.reserved;
  }

  /**
   * Takes a slot for an upload about to arrive; call the returned function once it is stored
   * or has failed.
   * @throws 409 REPORT_QUOTA when every slot is taken.
   */
  reserve(): () => void {
    if (this.used() >= this.max) {
      throw conflict(
        `the report limit of ${this.max} is reached: delete a report to upload another (KLEBB_REPORTS_MAX)`,
        'REPORT_QUOTA',
      );
    }
    this.reserved++;
    let released = false;
    return () => {
      if (!released) this.reserved--;
      released = true;
    };
  }

  /**
   * Files a received upload (`partFile`, in the inbox) as a new report in `processing`: claims
   * a free name, moves the original into the archive. Resolves the name, which starts with the
   * upload day in `timeZone` (the person's; undefined: the server's), not in UTC: a report
   * uploaded on a Los Angeles evening is named for that evening's day.
   */
  claim(upload: UploadName, partFile: string, now: Date = new Date(), timeZone?: string): string {
    const day = todayIn(timeZone, now);
    for (let n = 1; ; n++) {
      const name = `${day}-${upload.stem}${n === 1 ? '' : `-${n}`}`;
      const archivePath = `_archive/${name}.${upload.ext}`;
      const header: ReportHeader = {
        source_file: upload.original,
        ingested_at: now.toISOString(),
        archive_path: archivePath,
        status: 'processing',
        verify: 'none',
        summarised: 'no',
      };
      try {
        fs.writeFileSync(this.mdFile(name), renderReport(header, processingBody(upload.original)), {
          flag: 'wx',
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw err;
      }
      try {
        fs.renameSync(partFile, path.join(this.layout.reportsDir, archivePath));
      } catch (err) {
        fs.rmSync(this.mdFile(name), { force: true });
        throw err;
      }
      return name;
    }
  }

  /** Replaces a report's state and body (atomically). */
  write(name: string, header: ReportHeader, body: string): void {
    writeFileAtomic(this.mdFile(name), renderReport(header, body));
  }

  /** Where the original of a report is (it may be gone after a rejection). */
  originalPath(r: StoredReport): string | null {
    const rel = r.header.archive_path;
    if (!/^_archive\/[a-z0-9-]+\.[a-z]+$/.test(rel)) return null;
    return path.join(this.layout.reportsDir, rel);
  }

  /** The extracted-text file of a report (never the original's name, which may end .txt too). */
  textPath(name: string): string {
    return path.join(this.layout.reportsArchiveDir, `${name}.extracted.txt`);
  }

  /** Deletes a report, its original and its extracted text; frees its slot. */
  remove(r: StoredReport): void {
    const original = this.originalPath(r);
    if (original) fs.rmSync(original, { force: true });
    fs.rmSync(this.textPath(r.name), { force: true });
    fs.rmSync(this.mdFile(r.name), { force: true });
  }
}
