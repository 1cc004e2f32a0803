/**
 * The web app's import (Settings › Data) as a job with one state at a time, persisted in
 * `HEALTH_HOME/import/job.json` so a crash mid-way is finished or undone at the next start:
 *
 *   idle → (upload, start: checked and staged) → staged → (apply: nonce, REPLACE) → applying → done | failed
 *
 * Applying runs detached from the request (202, then status polling): an automatic snapshot
 * first (Roll back restores it), then the database in one transaction, then the files. While it
 * runs the home is frozen (every other `/api/` and `/mcp` request, and every write made for a
 * client however it came, is refused with 503 IMPORT_FROZEN and Retry-After;
 * src/store/home-freeze.ts): mid-way the card list and the rows do not match yet. Restoring a snapshot and rolling back are the same job with
 * the snapshot as its source. Start-up recovery (recoverImport) reads job.json before the cards
 * load: a job whose database step committed has its files step run again (resumed); one that
 * did not is marked failed (its database transaction rolled back and its files were never
 * touched), so the home is the old one or the new one, never a mix.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CardContext } from '../cards/card-context.js';
import { nameSome } from '../common/text.js';
import { badRequest, conflict, type ErrorCode, KlebbError, notFound } from '../errors.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import type { HomeLayout } from '../home/home-layout.js';
import { lazyImport } from '../lazy-module.js';
import { MAX_IDS_NAMED } from '../limits.js';
import type { Db } from '../store/database.js';
import { asServerWork, type HomeFreeze } from '../store/home-freeze.js';
import { pruneSnapshots, type Retention, snapshotPaths, takeSnapshot } from './backups.js';
import { assertCardFilesSeen } from './card-files-seen.js';
import {
  applyDatabase,
  applyFiles,
  isApplied,
  SELECT_ALL,
  type Selection,
  takesCards,
} from './import-apply.js';
import { jobFailure } from './import-failure.js';
import type { StageSummary } from './import-stage.js';
import { applyStagedChoices, type ReminderTarget } from './reminder-settings.js';
import { type StagedPaths, stagedPaths } from './staged-home.js';
import { inCurrentSchema } from './staged-schema.js';

/** Where a job is. */
export type JobState = 'idle' | 'staged' | 'applying' | 'done' | 'failed';

/** job.json. */
export interface JobRecord {
  id: string;
  kind: 'import' | 'restore' | 'rollback';
  state: JobState;
  stage?: 'snapshot' | 'database' | 'files';
  /** Staged home being applied (an unpacked archive, or a snapshot folder). */
  source?: string;
  selection?: Selection;
  /** The snapshot taken just before applying (what Roll back restores). */
  snapshot?: string;
  summary?: StageSummary;
  error?: { code: ErrorCode; message: string };
  /** How the last start-up found this job: finished by resuming, or left as it was before. */
  recovered?: 'resumed' | 'rolled-back';
  startedAt: string;
  finishedAt?: string;
}

/** What the job needs of the running home. */
export interface LiveHome {
  db: Db;
  layout: HomeLayout;
  cards: CardContext;
  /** Called after the tables were replaced (drop in-memory caches). */
  afterApply: () => void;
  retention: Retention;
  /** The person's time zone, whose days retention counts (undefined: the server's). */
  timeZone?: () => string | undefined;
  /** The home's freeze, told to follow whether a job is applying. */
  freeze?: HomeFreeze;
  /**
   * The running server's reminder state, which the settings an archive or snapshot carries go
   * into, and what arms the reminders of the cards given settings; without it, the home's file.
   */
  reminders?: { target: ReminderTarget; arm: (cardIds: string[]) => void };
}

// the archive check (with TypeBox's value checker for the manifest) only runs when someone
// imports, so an idle server does not load it
const archiveCheck = lazyImport(() => import('./import-archive.js'));

const importDir = (home: string) => path.join(home, 'import');
const jobFile = (home: string) => path.join(importDir(home), 'job.json');
const uploadFile = (home: string) => path.join(importDir(home), 'upload.zip');

/** Reads job.json, or null when there is none or it cannot be read. */
export function readJob(home: string): JobRecord | null {
  try {
    return JSON.parse(fs.readFileSync(jobFile(home), 'utf8')) as JobRecord;
  } catch {
    return null;
  }
}

function writeJob(home: string, job: JobRecord): void {
  fs.mkdirSync(importDir(home), { recursive: true });
  writeFileAtomic(jobFile(home), `${JSON.stringify(job, null, 2)}\n`, 0o600);
}

/**
 * Start-up recovery, run before the cards load: finishes (files step) a job whose database step
 * committed, marks failed one that did not. Returns what it did, or null when there was nothing.
 */
export function recoverImport(db: Db, layout: HomeLayout): JobRecord | null {
  const job = readJob(layout.home);
  if (job?.state !== 'applying') return null;
  const finishedAt = new Date().toISOString();
  if (job.source && job.selection && isApplied(db, job.id)) {
    applyFiles(layout, stagedPaths(job.source), job.selection);
    applyStagedChoices(stagedPaths(job.source), job.selection, layout.home);
    const done: JobRecord = { ...job, state: 'done', stage: undefined, recovered: 'resumed', finishedAt };
    writeJob(layout.home, done);
    if (job.kind === 'import' && job.source.startsWith(importDir(layout.home)))
      fs.rmSync(job.source, { recursive: true, force: true });
    return done;
  }
  const failed: JobRecord = {
    ...job,
    state: 'failed',
    recovered: 'rolled-back',
    error: {
      code: 'IMPORT_INTERRUPTED',
      message: 'the server stopped before the import was applied; nothing was changed',
    },
    finishedAt,
  };
  writeJob(layout.home, failed);
  return failed;
}

/** The import and restore jobs of one running home. */
export class ImportJobs {
  private job: JobRecord | null;
  private nonce: string | null = null;
  private busy = false;
  private running: Promise<void> | null = null;

  constructor(private readonly live: LiveHome) {
    this.job = readJob(live.layout.home);
    live.freeze?.follow(() => this.frozen);
    // start-up recovery has run: nothing is applying, so staged archives and partial uploads
    // left by a crash are leftovers
    const dir = importDir(live.layout.home);
    if (fs.existsSync(dir)) {
      for (const n of fs.readdirSync(dir)) {
        if (n.startsWith('staged-') || n.startsWith('.upload-'))
          fs.rmSync(path.join(dir, n), { recursive: true, force: true });
      }
    }
  }

  /** Whether the home is frozen (a job is applying). */
  get frozen(): boolean {
    return this.job?.state === 'applying';
  }

  /** Waits for a running apply (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Status for GET /api/import/status (the nonce is never repeated here). */
  status(): Record<string, unknown> {
    const j = this.job;
    if (!j) return { state: 'idle' };
    const { source: _s, ...rest } = j;
    return { ...rest, ...(j.state === 'staged' ? { target: this.target() } : {}) };
  }

  /** What the home holds now: its cards and whether replacing it needs REPLACE typed. */
  target(): { populated: boolean; cards: { id: string; label: string }[] } {
    const cards = this.live.cards.registry
      .all()
      .map((c) => ({ id: c.id, label: String(c.manifest.meta.label ?? c.id) }));
    const samples = this.live.db.prepare('SELECT count(*) FROM hae_samples').pluck().get() as number;
    const convs = this.live.db.prepare('SELECT count(*) FROM conversations').pluck().get() as number;
    return { populated: cards.some((c) => c.id !== 'welcome') || samples > 0 || convs > 0, cards };
  }

  private assertNotApplying(): void {
    if (this.busy || this.frozen)
      throw conflict('an import or restore is running; wait for it to finish', 'JOB_ACTIVE');
  }

  /** Path the upload is written to (the route streams the body there). */
  uploadPath(): string {
    this.assertNotApplying();
    fs.mkdirSync(importDir(this.live.layout.home), { recursive: true });
    return uploadFile(this.live.layout.home);
  }

  /**
   * Checks and stages the uploaded archive; the answer carries the preview and the confirm
   * nonce (given out only here, once).
   * @throws 404 NO_UPLOAD, 409 JOB_ACTIVE, 422 `ZIP_*` / `IMPORT_*` (nothing staged then).
   */
  async start(): Promise<Record<string, unknown>> {
    this.assertNotApplying();
    const home = this.live.layout.home;
    if (!fs.existsSync(uploadFile(home)))
      throw notFound('no archive uploaded yet (POST /api/import/upload)', 'NO_UPLOAD');
    this.busy = true;
    try {
      this.discardStaged();
      const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
      const dir = path.join(importDir(home), `staged-${id}`);
      const { checkAndStage } = await archiveCheck();
      const staged = await checkAndStage(uploadFile(home), dir);
      this.job = {
        id,
        kind: 'import',
        state: 'staged',
        source: dir,
        summary: staged.summary,
        startedAt: new Date().toISOString(),
      };
      this.nonce = randomBytes(16).toString('hex');
      return { ...this.status(), nonce: this.nonce };
    } finally {
      fs.rmSync(uploadFile(home), { force: true });
      this.busy = false;
    }
  }

  /** Drops a staged (not applied) archive. @throws 409 BAD_STATE when nothing is staged. */
  abort(): void {
    this.assertNotApplying();
    if (this.job?.state !== 'staged') throw conflict('no import is waiting to be applied', 'BAD_STATE');
    this.discardStaged();
    this.job = null;
    this.nonce = null;
  }

  private discardStaged(): void {
    if (this.job?.state === 'staged' && this.job.source)
      fs.rmSync(this.job.source, { recursive: true, force: true });
  }

  /**
   * Applies the staged archive (detached). The nonce is spent only when the request is accepted.
   * @throws 409 BAD_STATE (nothing staged / wrong or spent nonce), 400 SELECTION_EMPTY /
   *   SELECTION_INVALID, then 428 CONFIRM_REQUIRED (a populated home without `confirm: "REPLACE"`).
   */
  apply(input: { nonce: string; confirm?: string; selection?: Partial<Selection> }): Record<string, unknown> {
    this.assertNotApplying();
    const job = this.job;
    if (job?.state !== 'staged' || !this.nonce)
      throw conflict('no import is waiting to be applied', 'BAD_STATE');
    if (input.nonce !== this.nonce)
      throw conflict(
        'this confirmation is not valid (already used, or from another upload); start again',
        'BAD_STATE',
      );
    // the selection first: nobody is asked to type REPLACE for a choice that cannot be imported
    const sel = this.selection(input.selection, job.summary);
    if (this.target().populated && input.confirm !== 'REPLACE') {
      throw new KlebbError(
        428,
        'CONFIRM_REQUIRED',
        'this home holds data: type REPLACE to replace it with the archive',
      );
    }
    if (takesCards(sel)) assertCardFilesSeen(this.live.cards, 'import');
    this.nonce = null;
    return this.launch({ ...job, selection: sel }, true);
  }

  /**
   * Checks a selection against the staged archive without applying anything or spending the
   * nonce, so the web app asks for REPLACE only for a selection that can be imported.
   * @returns the selection with its defaults filled in, and whether the home holds data (then
   *   apply needs `confirm: "REPLACE"`).
   * @throws 409 BAD_STATE when nothing is staged, 400 SELECTION_EMPTY / SELECTION_INVALID.
   */
  checkSelection(input: Partial<Selection> | undefined): { selection: Selection; populated: boolean } {
    const job = this.job;
    if (job?.state !== 'staged') throw conflict('no import is waiting to be applied', 'BAD_STATE');
    return { selection: this.selection(input, job.summary), populated: this.target().populated };
  }

  private selection(s: Partial<Selection> | undefined, summary?: StageSummary): Selection {
    const sel: Selection = {
      cards: s?.cards ?? 'all',
      samples: s?.samples ?? true,
      conversations: s?.conversations ?? true,
      reports: s?.reports ?? true,
    };
    if (Array.isArray(sel.cards)) {
      const known = new Set(summary?.cards.map((c) => c.id));
      const unknown = sel.cards.filter((c) => !known.has(c));
      if (unknown.length) {
        throw badRequest(
          `selection.cards names cards the archive does not hold: ${nameSome(unknown, MAX_IDS_NAMED)}`,
          [{ path: 'selection.cards', message: 'unknown card ids' }],
          'SELECTION_INVALID',
        );
      }
    }
    const nothing =
      Array.isArray(sel.cards) &&
      sel.cards.length === 0 &&
      !sel.samples &&
      !sel.conversations &&
      !sel.reports;
    if (nothing)
      throw badRequest(
        'the selection is empty: choose at least one thing to import',
        [{ path: 'selection', message: 'names no card and leaves out samples, conversations and reports' }],
        'SELECTION_EMPTY',
      );
    return sel;
  }

  /**
   * Restores snapshot `name` (detached), behind a fresh pre-import snapshot.
   * @throws 404 NO_SNAPSHOT, 409 JOB_ACTIVE, 428 CONFIRM_REQUIRED without `confirm: "REPLACE"`.
   */
  restore(name: string, confirm?: string): Record<string, unknown> {
    this.assertNotApplying();
    const p = snapshotPaths(this.live.layout.home, name);
    if (confirm !== 'REPLACE')
      throw new KlebbError(428, 'CONFIRM_REQUIRED', 'type REPLACE to replace this home with the snapshot');
    assertCardFilesSeen(this.live.cards, 'restore');
    this.discardStaged();
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    return this.launch(
      {
        id,
        kind: 'restore',
        state: 'staged',
        source: p.dir,
        selection: SELECT_ALL,
        startedAt: new Date().toISOString(),
      },
      true,
    );
  }

  /** Rolls the last import or restore back to the snapshot taken before it. @throws 404 NO_SNAPSHOT. */
  rollback(): Record<string, unknown> {
    this.assertNotApplying();
    const snap = this.job?.snapshot;
    if (!snap || this.job?.kind === 'rollback')
      throw notFound('there is no import to roll back', 'NO_SNAPSHOT');
    const p = snapshotPaths(this.live.layout.home, snap);
    assertCardFilesSeen(this.live.cards, 'roll back');
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    return this.launch(
      {
        id,
        kind: 'rollback',
        state: 'staged',
        source: p.dir,
        selection: SELECT_ALL,
        startedAt: new Date().toISOString(),
      },
      false,
    );
  }

  private launch(job: JobRecord, snapshotFirst: boolean): Record<string, unknown> {
    const home = this.live.layout.home;
    this.job = {
      ...job,
      state: 'applying',
      stage: snapshotFirst ? 'snapshot' : 'database',
      snapshot: snapshotFirst ? undefined : job.snapshot,
    };
    writeJob(home, this.job);
    // the job is the server's own work, though a request starts it: its writes pass the freeze
    this.running = asServerWork(() => this.run(snapshotFirst)).finally(() => {
      this.running = null;
    });
    return this.status();
  }

  private async run(snapshotFirst: boolean): Promise<void> {
    const home = this.live.layout.home;
    const job = this.job as JobRecord;
    const save = (patch: Partial<JobRecord>) => {
      Object.assign(job, patch);
      writeJob(home, job);
    };
    try {
      if (snapshotFirst) {
        const snap = await takeSnapshot(
          {
            db: this.live.db,
            home,
            cards: () => this.live.cards.registry.all().map((c) => ({ id: c.id, file: c.file })),
            reportsDir: this.live.layout.reportsDir,
            metaDir: this.live.layout.metaDir,
          },
          'pre-import',
        );
        save({ snapshot: snap.name, stage: 'database' });
      }
      // a large card file being loaded finishes first: its rows are not stored half when the
      // whole home is replaced
      await this.live.cards.loader.largeLoadsDone();
      const src = stagedPaths(job.source as string);
      const sel = job.selection as Selection;
      // checked again at the last moment: a file edited by hand since the request is not lost
      if (takesCards(sel))
        assertCardFilesSeen(this.live.cards, job.kind === 'rollback' ? 'roll back' : job.kind);
      // a snapshot an older Klebb took is read from a copy in this build's schema
      const current = inCurrentSchema(src, path.join(importDir(home), `staged-${job.id}.sqlite`));
      try {
        applyDatabase(this.live.db, current.staged, sel, job.id, job.kind, this.live.cards.store.changes);
      } finally {
        current.done();
      }
      save({ stage: 'files' });
      const files = applyFiles(this.live.layout, src, sel);
      this.syncLoader(files);
      this.adoptReminders(src, sel);
      this.live.afterApply();
      save({ state: 'done', stage: undefined, finishedAt: new Date().toISOString() });
      if (job.kind === 'import') fs.rmSync(job.source as string, { recursive: true, force: true });
      pruneSnapshots(home, this.live.retention, this.live.timeZone?.());
    } catch (err) {
      save({ state: 'failed', error: jobFailure(err, job), finishedAt: new Date().toISOString() });
    }
  }

  /**
   * Puts the staged reminder settings in place once the cards are loaded. A failed save of the
   * state file fails nothing: the settings are in the running state, and its next save writes them.
   */
  private adoptReminders(src: StagedPaths, sel: Selection): void {
    const r = this.live.reminders;
    let ids: string[] = [];
    try {
      ids = applyStagedChoices(src, sel, this.live.layout.home, r?.target);
    } catch {
      // the state file could not be written (see above)
    }
    if (ids.length > 0) r?.arm(ids);
  }

  /** Tells the card loader about the files the apply removed and wrote, without auto-hiding the welcome card. */
  private syncLoader(files: { removed: string[]; written: string[] }): void {
    const loader = this.live.cards.loader;
    const hook = loader.onCardArrived;
    loader.onCardArrived = undefined;
    try {
      // the files are the job's own: their changes join its change set (not hand edits). The
      // written files are read first: a card whose file the apply renamed (a hand-named
      // `My weight.json` put back as `weight.json`) moves to its new file instead of being
      // taken for deleted in between, which would forget its dismissed nudges and its reminders
      loader.syncOwnFiles(() => {
        for (const f of files.written) loader.safeLoad(f);
        for (const f of files.removed) loader.fileGone(f);
      });
    } finally {
      loader.onCardArrived = hook;
    }
  }
}
