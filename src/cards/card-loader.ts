/**
 * Loads manifest files into the registry: lenient, so one bad field drops
 * that field and is reported, not the card; a file without `$schema` is skipped; an unsupported
 * `$schema`, unreadable JSON or a duplicate id is an error entry. Of two files with one id the
 * first by file name wins, whichever the watcher saw first. A file that fails keeps its last good
 * card until it is fixed (even back to the same bytes) or gone.
 * A file that carries `data` is an import: its rows move into the store in one transaction, the
 * original is kept beside it as `<name>.<stamp>.json`, and the file is rewritten meta-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { LoadError } from '../common/view-types.js';
import { writeFileAtomic, writeTemp } from '../home/atomic-write.js';
import { commitIfUnchanged } from '../home/commit-file.js';
import { isKnownMetric } from '../ingest/hae/format/catalogue.js';
import { CARD_RETURN_MS, LOAD_SLICE_ROWS, MAX_CARD_FILE_BYTES } from '../limits.js';
import type { CardDataStore } from '../store/card-data-store.js';
import { inChangeSet } from '../store/change-scope.js';
import { type StagedRows, StagedRowsClosed } from '../store/staged-rows.js';
import { isDiskFull } from '../store/storage-faults.js';
import type { Card, CardRegistry } from './card-registry.js';
import { evictedToCloud, filesInCloud } from './cloud-placeholder.js';
import { normaliseImportedData } from './data-normalise.js';
import { fileStamp, type PreparedData, readLargeFile, rowText } from './large-file-read.js';
import {
  contentHash,
  freeBackupPath,
  isManifestFileName,
  type ManifestBody,
  serializeManifest,
  splitData,
} from './manifest-file.js';
import { type BytesProblem, readManifestBytes } from './manifest-read.js';
import { isManifestSchemaId } from './manifest-schema-id.js';
import { parseManifestLoosely } from './manifest-text.js';
import { loadNotes, sanitizeAtLoad } from './validate-manifest.js';

/** Options of one load. */
export interface LoadOptions {
  /** Import a `data` key (default true); false when a duplicate takes over a freed id. */
  importData?: boolean;
}

/** What happened to a file when it was (re)loaded; `missing`: not there, nothing changed. */
export type LoadOutcome = 'loaded' | 'unchanged' | 'removed' | 'skipped' | 'error' | 'missing';

/** Something the loader tells the rest of the product about (the dashboard's live updates). */
export type CardEvent =
  /** `restored`: a card that was not there, brought back by an undo (of its deletion, or a redo of its creation). */
  | { type: 'card-changed'; id: string; restored?: boolean }
  /** `mayReturn`: its file vanished by hand and may come back as the same card (see rememberGone). */
  | { type: 'card-removed'; id: string; mayReturn?: boolean }
  | { type: 'data-changed'; id: string; version: number }
  /**
   * A card file's load problems changed without a card changing: it failed to load (broken JSON,
   * a missing field, a duplicate id) or a failed file was deleted. `id` is the card id the file
   * names when it names one, else ''; `file` its name. Pages re-read the card list, which carries
   * the problems (`errors`).
   */
  | { type: 'file-error'; id: string; file: string };

/** Reads manifest files into the registry. */
export class CardLoader {
  /** Files whose last load failed: their bytes are re-read even when the hash matches the card's. */
  private readonly failed = new Set<string>();
  /** The large files loaded one after another (loadLarge): the end of the last one queued. */
  private largeQueue: Promise<unknown> = Promise.resolve();
  /** The large file being loaded now, and the rows it is storing. */
  private largeFile: string | undefined;
  private staging: StagedRows | undefined;
  /** Set once the instance stops: a large file read meanwhile is not stored. */
  private stopping = false;

  /**
   * Called after a file loaded a card whose id was not loaded before (a new card, not an edit
   * or a failed file); the instance hides the welcome card with it.
   */
  onCardArrived: ((id: string) => void) | undefined;

  /**
   * Record manifest changes found on disk in the change log (actor `file`). Off while the
   * files are first read at start-up (that is the home's starting state, not an edit). A file
   * whose content is already the newest manifest change recorded for its card (another Klebb
   * process on this home wrote and recorded it) is loaded but not recorded again.
   */
  recordChanges = false;

  /** True while syncOwnFiles runs: what is found joins the caller's change set. */
  private ownFiles = false;

  /**
   * Cards whose file vanished by hand (the change that recorded the deletion, when one did, and
   * when): one that a file brings back within CARD_RETURN_MS is the same card (see place).
   */
  private readonly gone = new Map<string, { changeId: number | undefined; at: number }>();

  /**
   * Cards whose file took another id a moment ago, while the file that file's new id came from
   * is read (see place): a card found there under one of these ids is the same card moved.
   */
  private readonly displaced = new Map<string, Card>();

  constructor(
    private readonly dataDir: string,
    private readonly registry: CardRegistry,
    private readonly store: CardDataStore,
    private readonly emit: (e: CardEvent) => void,
    private readonly log: { warn: (obj: object, msg: string) => void },
  ) {}

  /** Every file that holds a card or has a load error (absolute paths). */
  knownFiles(): string[] {
    return this.registry.files();
  }

  /** Whether the last load of `file` failed (invalid JSON, unreadable ...): its bytes are a half-finished edit. */
  hasFailed(file: string): boolean {
    return this.failed.has(file);
  }

  /** Records that we wrote `file` ourselves with valid content (its failure mark no longer applies). */
  wroteFile(file: string): void {
    this.failed.delete(file);
  }

  /**
   * Loads every manifest file of the data folder. Files are taken in claim order (see
   * claimRank): for an id two files claim, `<id>.json` wins, else the earlier name (a copy named
   * after its original ranks after it); so the winner of a duplicate is the same at start-up as
   * at run time, and a stray copy never imports over the card it duplicates. One bad file never
   * stops the others.
   */
  scanAll(): void {
    fs.mkdirSync(this.dataDir, { recursive: true });
    const names = fs
      .readdirSync(this.dataDir, { withFileTypes: true })
      // every kind of entry but folders: loadFile decides (a symlink to a manifest loads, a FIFO
      // or a broken link is reported), the same at start-up as while running
      .filter((d) => !d.isDirectory() && isManifestFileName(d.name))
      .map((d) => d.name);
    const ranked = names
      .map((name) => ({ name, rank: claimRank(name, peekId(path.join(this.dataDir, name))) }))
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
    for (const { name } of ranked) this.safeLoad(path.join(this.dataDir, name));
    for (const file of filesInCloud(this.dataDir)) this.loadFromCloud(file);
  }

  /**
   * Records, as one hand edit (actor `file`), each card file found at start-up whose text is
   * not the newest manifest the change log holds for it: it was edited while Klebb was stopped.
   * Without the record the card's ETag would stay the one read before the stop, so a patch or
   * an undo decided on the old file would go ahead over the edit unseen. Cards with no recorded
   * manifest (files dropped in by hand) or whose last text was too large to keep are left as
   * they are: there is nothing to compare with. Call once, after scanAll.
   */
  recordEditsWhileStopped(): void {
    inChangeSet({ actor: 'file', fresh: true }, () => {
      for (const card of this.registry.all()) {
        const last = this.store.changes.newestManifestImage(card.id);
        if (!last || last.after === null || last.image_omitted !== 0) continue;
        const now = serializeManifest(card.raw);
        if (now !== last.after)
          this.store.changes.recordManifest(card.id, path.basename(card.file), last.after, now);
      }
    });
  }

  /**
   * A card file iCloud had already moved to the cloud when Klebb started (only its placeholder
   * `.name.json.icloud` is there). Nobody deleted the card: it is placed from the newest manifest
   * the change log holds for that file, its rows from the store, with the FILE_IN_CLOUD note,
   * as when the file goes while Klebb runs. Without such a record (a file dropped in by hand and
   * never changed in Klebb), or when another file holds its id now, the card cannot be shown:
   * the note then names the file, so the card is not silently missing. The file's return loads
   * it as usual and the note goes.
   */
  private loadFromCloud(file: string): void {
    const name = path.basename(file);
    const last = this.store.changes.latestManifestOfFile(name);
    const read = last?.after === undefined ? undefined : readManifestBytes(Buffer.from(last.after));
    const judged = read?.ok ? this.judge(file, read.obj, undefined) : undefined;
    if (last?.after !== undefined && judged?.ok && !this.registry.has(judged.card.id)) {
      this.place(file, judged.card, undefined, contentHash(Buffer.from(last.after)), []);
      this.inCloud(file);
      return;
    }
    this.registry.setErrors(file, [
      {
        file: name,
        code: 'FILE_IN_CLOUD',
        message: `iCloud has moved this file to the cloud to free space (only .${name}.icloud is left), and Klebb keeps no copy of its card: the card shows again, with its rows, once the file is downloaded; open the folder in Finder, or choose Keep Downloaded`,
      },
    ]);
    this.emit({ type: 'file-error', id: '', file: name });
  }

  /**
   * Runs `fn`, which tells the loader (safeLoad, fileGone) about card files the server itself has
   * just written or removed, such as an import, a restore or a roll back putting the home's files
   * in place: the manifest changes found join the caller's change set, as part of that job, instead
   * of each becoming a hand edit (actor `file`) that History would offer to undo on its own.
   */
  syncOwnFiles<T>(fn: () => T): T {
    const was = this.ownFiles;
    this.ownFiles = true;
    try {
      return fn();
    } finally {
      this.ownFiles = was;
    }
  }

  /** loadFile that never throws: an unexpected failure becomes the file's error entry. */
  safeLoad(file: string, opts: LoadOptions = {}): LoadOutcome {
    // a hand edit is a change set of its own, whoever noticed it first
    return inChangeSet({ actor: 'file', fresh: !this.ownFiles }, () => {
      try {
        return this.loadFile(file, opts);
      } catch (err) {
        return this.fail(file, 'READ_FAILED', `could not load: ${(err as Error).message}`);
      }
    });
  }

  /**
   * (Re)loads one file after it was added or changed. Content equal to what the registry holds
   * (our own write, or a touch) changes nothing. A missing file changes nothing either
   * (it may be mid-way through an editor's rename-and-replace save): only `fileGone` removes.
   * A file a worker is loading (loadLarge) is left to it: 'unchanged' here.
   */
  loadFile(file: string, opts: LoadOptions = {}): LoadOutcome {
    if (!this.isDataFile(file)) return 'skipped';
    if (this.largeFile === file) return 'unchanged';
    const pre = this.checkReadable(file);
    if (pre) return pre;
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      return this.fail(file, 'READ_FAILED', `cannot read file: ${(err as Error).message}`);
    }
    const hash = contentHash(bytes);
    const current = this.registry.byFile(file);
    if (current && current.hash === hash && !this.failed.has(file)) {
      this.backFromCloud(file);
      return 'unchanged';
    }
    const read = readManifestBytes(bytes);
    if (!read.ok) return this.failBytes(file, read.problem, current);
    const judged = this.judge(file, read.obj, current);
    if (!judged.ok) return judged.apply();
    const { hasData, data } = splitData(read.obj);
    const { id, body } = judged.card;
    let finalHash = hash;
    const warnings: LoadError[] = [];
    if (hasData && opts.importData === false) {
      // a former duplicate taking a freed id keeps its rows to itself: its (likely stale) data
      // must not replace the card's rows; the file is left as it is
      warnings.push({
        file: path.basename(file),
        id,
        code: 'DATA_NOT_IMPORTED',
        path: 'data',
        message:
          'this file took over an id another file gave up; its data was not imported (remove its data key, or re-add the file to import it)',
      });
    } else if (hasData) {
      try {
        const incoming = normaliseImportedData(data);
        if (incoming.rescued) warnings.push(rescuedWarning(file, id));
        if (this.importedBefore(file, bytes, id, incoming.data)) {
          // stopped (a power cut, kill -9) after its rows were stored and its copy kept, before
          // the file was rewritten without its data: only that last step is left to do
          const meta = metaOnlyTemp(file, body);
          const placed = commitIfUnchanged(meta.tmp, file, hash) === 'committed';
          return this.place(file, judged.card, current, placed ? contentHash(meta.text) : hash, warnings);
        }
        // a copy of these very bytes kept by an import a power cut stopped before its rows were
        // stored is the copy of this import: a second one would only be the same bytes again
        const kept = this.keptCopy(file, bytes);
        const backup = kept ?? freeBackupPath(this.dataDir, path.basename(file));
        // the original as it was dropped in (its own encoding)
        if (!kept) writeFileAtomic(backup, bytes);
        const write = () => this.store.replace(id, incoming.data, 'file', 'import');
        finalHash = this.importData(file, id, body, backup, write, hash, hash, !kept);
      } catch (err) {
        return this.fail(file, 'IMPORT_FAILED', importFailure(err), { id });
      }
    }
    return this.place(file, judged.card, current, finalHash, warnings);
  }

  /**
   * loadFile for a large file (isLargeFile), without holding the event loop: a worker thread
   * reads, checks and parses it (large-file-read.ts), its rows are stored in slices of
   * LOAD_SLICE_ROWS with a turn of the event loop after each (staged-rows.ts), and the card is
   * placed, with all its rows at once, in one last step; until then the card as it was (or no
   * card) is what every read sees. A file saved again meanwhile is not placed (the watcher brings
   * the newer bytes next): 'unchanged'. One large file loads at a time. Never throws.
   */
  loadLarge(file: string): Promise<LoadOutcome> {
    const run = this.largeQueue.then(() =>
      inChangeSet({ actor: 'file', fresh: true }, async () => {
        try {
          return await this.loadLargeOnce(file);
        } catch (err) {
          return this.fail(file, 'READ_FAILED', `could not load: ${(err as Error).message}`);
        } finally {
          this.largeFile = undefined;
          this.staging = undefined;
        }
      }),
    );
    this.largeQueue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Abandons the large file being loaded, now: its rows stored so far are removed. For shutdown. */
  async cancelLargeLoads(): Promise<void> {
    this.stopping = true;
    this.staging?.discard();
    await this.largeQueue;
  }

  /** Resolves once the large files queued so far are loaded (an import waits for them before it applies). */
  async largeLoadsDone(): Promise<void> {
    await this.largeQueue;
  }

  private async loadLargeOnce(file: string): Promise<LoadOutcome> {
    if (!this.isDataFile(file)) return 'skipped';
    const pre = this.checkReadable(file);
    if (pre) return pre;
    this.largeFile = file;
    const before = this.registry.byFile(file);
    const backup = freeBackupPath(this.dataDir, path.basename(file));
    const knownHash = before && !this.failed.has(file) ? before.hash : undefined;
    const read = await readLargeFile({ file, knownHash, backup });
    const current = this.registry.byFile(file);
    if (read.kind === 'missing') return 'missing';
    if (read.kind === 'unchanged') this.backFromCloud(file);
    if (read.kind === 'changing' || read.kind === 'unchanged') return 'unchanged';
    if (read.kind === 'error') return this.fail(file, 'READ_FAILED', read.message);
    if (read.kind === 'problem') return this.failBytes(file, read.problem, current);
    const dropBackup = () => {
      if (read.backup) fs.rmSync(read.backup, { force: true });
    };
    if (this.stopping) {
      dropBackup();
      return 'unchanged';
    }
    const first = this.judge(file, read.body, current);
    if (!first.ok || !read.data) {
      dropBackup();
      return first.ok ? this.place(file, first.card, current, read.hash, []) : first.apply();
    }
    let pending: Awaited<ReturnType<CardLoader['storeLargeData']>>;
    try {
      pending = await this.storeLargeData(first.card.id, read.data);
    } catch (err) {
      dropBackup();
      const message = `importing its data failed: ${(err as Error).message}`;
      return this.fail(file, 'IMPORT_FAILED', message, { id: first.card.id });
    }
    if (!pending) {
      dropBackup();
      return 'unchanged';
    }
    // the last step, in one turn of the event loop: the file must still be the one read, and
    // still be a card of this id (judged again: another file may have taken the id meanwhile)
    const now = this.registry.byFile(file);
    const again = fileStamp(file) === read.stamp ? this.judge(file, read.body, now) : undefined;
    if (!again?.ok || again.card.id !== first.card.id) {
      pending.discard();
      dropBackup();
      if (!again) return fs.existsSync(file) ? 'unchanged' : 'missing';
      return again.ok ? this.place(file, again.card, now, read.hash, []) : again.apply();
    }
    const { id, body } = again.card;
    let meta: MetaOnly | undefined;
    let version: number;
    try {
      // written before the rows change (see importData)
      meta = metaOnlyTemp(file, body);
      version = await pending.write();
    } catch (err) {
      pending.discard();
      dropBackup();
      if (meta) fs.rmSync(meta.tmp, { force: true });
      return this.fail(file, 'IMPORT_FAILED', importFailure(err), { id });
    }
    const same = (aside: string) => fileStamp(aside) === read.stamp;
    const finalHash = this.afterImport(file, id, version, meta, same, read.hash);
    return this.place(file, again.card, now, finalHash, read.rescued ? [rescuedWarning(file, id)] : []);
  }

  /**
   * Gets a large file's data ready to become the card's: rows stored in slices (not seen yet),
   * or one value. `write` then makes it the card's data (returning the version); `discard`
   * drops it. Undefined when the load was abandoned meanwhile (cancelLargeLoads).
   */
  private async storeLargeData(
    id: string,
    data: PreparedData,
  ): Promise<{ write: () => Promise<number>; discard: () => void } | undefined> {
    if (data.kind === 'value') {
      return { write: async () => this.store.replace(id, data.value, 'file', 'import'), discard: () => {} };
    }
    const staged = this.store.stageRows(id);
    this.staging = staged;
    try {
      await this.storeSlices(staged, data.buf, data.ends);
    } catch (err) {
      staged.discard();
      if (err instanceof StagedRowsClosed) return undefined;
      throw err;
    }
    if (!staged.isOpen()) return undefined;
    return { write: () => staged.finish('file', 'import', data.after), discard: () => staged.discard() };
  }

  /** Stores prepared rows in slices of LOAD_SLICE_ROWS, a turn of the event loop after each. */
  private async storeSlices(staged: StagedRows, bytes: Uint8Array, ends: Uint32Array): Promise<void> {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < ends.length; ) {
      const end = Math.min(ends.length, i + LOAD_SLICE_ROWS);
      const bodies: string[] = [];
      for (; i < end; i++) bodies.push(rowText(buf, ends, i));
      staged.add(bodies);
      await yieldToLoop();
    }
  }

  /** Whether `file` is a manifest file directly in the data folder. */
  private isDataFile(file: string): boolean {
    return isManifestFileName(path.basename(file)) && path.dirname(file) === this.dataDir;
  }

  /**
   * Only regular files are read (reading a FIFO named *.json would block the whole process):
   * the outcome for anything else ('missing', or the failure recorded), undefined to go on.
   */
  private checkReadable(file: string): LoadOutcome | undefined {
    try {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) {
        const link = fs.lstatSync(file, { throwIfNoEntry: false });
        if (link?.isSymbolicLink())
          return this.fail(file, 'READ_FAILED', 'a symbolic link whose target is missing');
        return 'missing';
      }
      if (!st.isFile()) return this.fail(file, 'READ_FAILED', 'not a regular file');
      if (st.size > MAX_CARD_FILE_BYTES) return this.tooLarge(file, st.size);
      return undefined;
    } catch (err) {
      return this.fail(file, 'READ_FAILED', `cannot read file: ${(err as Error).message}`);
    }
  }

  /** Reports a file over MAX_CARD_FILE_BYTES without reading it (the last good card stays, with its rows). */
  private tooLarge(file: string, size: number): LoadOutcome {
    const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
    return this.fail(
      file,
      'FILE_TOO_LARGE',
      `the file is ${mb(size)}, more than the ${mb(MAX_CARD_FILE_BYTES)} a card file may be, so it was not read; if it was saved here by mistake, move it away (a card it replaced keeps its rows)`,
      { id: this.registry.byFile(file)?.id },
    );
  }

  /** Records the failure of bytes that are no manifest object (the last good card stays). */
  private failBytes(file: string, problem: BytesProblem, current: Card | undefined): LoadOutcome {
    const at: { id?: string; path?: string; line?: number } = { id: current?.id };
    if (problem.path !== undefined) at.path = problem.path;
    if (problem.line !== undefined) at.line = problem.line;
    return this.fail(file, problem.code, problem.message, at);
  }

  /**
   * What a parsed manifest file is, without changing anything: a card this file may hold (its
   * id, label and `$schema` are right and no file that ranks first holds the id), or the
   * outcome to record (`apply`: a failure, or a file that is no manifest at all).
   */
  private judge(file: string, obj: Record<string, unknown>, current: Card | undefined): Judgement {
    const name = path.basename(file);
    if (!Object.hasOwn(obj, '$schema')) return { ok: false, apply: () => this.fileGone(file, 'skipped') };
    const failing = (code: string, message: string, at: { id?: string; path?: string } = {}): Judgement => ({
      ok: false,
      apply: () => this.fail(file, code, message, at),
    });
    if (!isManifestSchemaId(obj.$schema)) {
      return failing(
        'UNSUPPORTED_SCHEMA',
        `unsupported $schema ${JSON.stringify(obj.$schema)} (expected "klebb.datafile.v1")`,
      );
    }
    const meta = obj.meta as Record<string, unknown> | undefined;
    if (!meta || typeof meta !== 'object' || Array.isArray(meta)) {
      return failing('MISSING_FIELD', 'meta must be an object', { path: 'meta' });
    }
    const id = meta.id;
    if (typeof id !== 'string' || id === '') {
      return failing('MISSING_FIELD', 'meta.id must be a non-empty string', { path: 'meta.id' });
    }
    // a label left out or blank is read as the id in words (see the registry); another type is a mistake
    if (meta.label !== undefined && meta.label !== null && typeof meta.label !== 'string') {
      return failing('MISSING_FIELD', 'meta.label must be a non-empty string', { id, path: 'meta.label' });
    }
    const holder = this.registry.get(id);
    const rival = holder && holder.file !== file ? holder.file : undefined;
    // the file that held the id no longer claims it: this is that card under a new name, not a
    // second card with the same id. It is gone from the disk (`mv`, `git mv`, a case-only rename,
    // a sync tool), or names another id now (two files that swapped ids, in a `git checkout` or
    // a restore, are judged one by one: the other one's change is not loaded yet)
    const moved = rival !== undefined && !stillClaims(rival, id);
    if (rival && !moved && claimRank(path.basename(rival), id) < claimRank(name, id)) {
      return { ok: false, apply: () => this.duplicate(file, id, path.basename(rival)) };
    }
    const { body } = splitData(obj);
    return { ok: true, card: { id, body, holder, rival, moved, previous: current } };
  }

  /** Puts a judged card in the registry (the file's hash now is `hash`) and tells listeners. */
  private place(
    file: string,
    judged: Judged,
    current: Card | undefined,
    hash: string,
    warnings: LoadError[],
  ): LoadOutcome {
    const { id, body, holder, rival, moved } = judged;
    const name = path.basename(file);
    // an unknown meta.ingest.metric is dropped at load
    const sanitized = sanitizeAtLoad(body, { isKnownMetric });
    const { manifest } = sanitized;
    const errors: LoadError[] = [...loadNotes(sanitized, name, id), ...warnings];
    const card: Card = { id, file, raw: body, manifest: manifest as Card['manifest'], hash };
    if (rival && moved) {
      // the card's file was renamed: the old name is forgotten now, without a problem to report
      // or a deletion to record when its vanishing is noticed (a file still there is read below)
      this.registry.removeFile(rival);
      this.failed.delete(rival);
    } else if (rival) {
      // this file ranks first, so it takes the id (as a restart would); the others yield and
      // their messages name the new holder
      this.registry.removeFile(rival);
      this.duplicate(rival, id, name);
      for (const loser of this.registry.filesWithDuplicateId(id))
        if (loser !== file) this.duplicate(loser, id, name);
    }
    // a card whose file vanished a moment ago, back in this file: the same card returning (a
    // job putting files in place records them in its own change set)
    const back = holder || this.ownFiles ? undefined : this.returning(id);
    if (this.recordChanges) {
      // a renamed file changes the card only as far as its content differs from the old file's
      const was = current && current.id === id ? current : moved ? holder : this.displaced.get(id);
      const after = serializeManifest(body);
      // its recorded deletion becomes this change, unless something came after it
      const folded =
        !was &&
        back?.changeId !== undefined &&
        this.store.changes.foldDeletion(back.changeId, id, name, after);
      const before = was ? serializeManifest(was.raw) : undefined;
      if (!folded && before !== after && !this.store.changes.isLatestManifest(id, after))
        this.store.changes.recordManifest(id, name, before, after);
    }
    this.registry.put(card);
    this.registry.setErrors(file, errors);
    this.failed.delete(file);
    this.emit({ type: 'card-changed', id });
    // this file held another card before: that card may have moved to the file this one came
    // from (ids swapped), which is read now, before the other card is taken for gone
    const displaced = current && current.id !== id ? current : undefined;
    if (displaced) this.displaced.set(displaced.id, displaced);
    try {
      if (rival && moved && fs.existsSync(rival)) this.safeLoad(rival);
    } finally {
      if (displaced) this.displaced.delete(displaced.id);
    }
    // a previous card of this file under another id is gone now, unless another file has that id
    if (displaced) this.idFreed(displaced.id);
    if (!holder && !this.displaced.has(id) && !back) this.onCardArrived?.(id);
    return 'loaded';
  }

  /**
   * The file is gone (deleted by hand, or renamed away and not back within the settle window).
   * The card leaves the registry (or the next file refused its id takes it); its rows stay in the
   * store, so a file that comes back brings them back (never drop rows on a vanished file).
   */
  fileGone(file: string, outcome: LoadOutcome = 'removed'): LoadOutcome {
    // evicted to iCloud, not deleted: the card stays as it was, with its rows, until it is back
    if (outcome === 'removed' && this.registry.byFile(file) && evictedToCloud(file))
      return this.inCloud(file);
    const hadFailed = this.failed.delete(file);
    const card = this.registry.removeFile(file);
    // a broken file deleted: its problem leaves the list
    if (hadFailed) this.emit({ type: 'file-error', id: '', file: path.basename(file) });
    if (!card) return 'skipped';
    let changeId: number | undefined;
    // a deletion another Klebb process made (and recorded) is not a hand edit
    if (this.recordChanges && !this.store.changes.isLatestManifest(card.id, undefined)) {
      changeId = inChangeSet({ actor: 'file', fresh: !this.ownFiles }, () =>
        this.store.changes.recordManifest(
          card.id,
          path.basename(file),
          serializeManifest(card.raw),
          undefined,
        ),
      );
    }
    // a file that vanished by hand may come back (a job removing files means it)
    if (!this.ownFiles) this.rememberGone(card.id, changeId);
    this.idFreed(card.id, !this.ownFiles);
    return outcome;
  }

  /**
   * Keeps the card of `file`, which iCloud has replaced by a placeholder: no deletion is recorded
   * and the card (served from memory, its rows from the store) is listed with a FILE_IN_CLOUD
   * note until the file is downloaded again.
   */
  private inCloud(file: string): LoadOutcome {
    const card = this.registry.byFile(file);
    if (!card || this.registry.errorsOf(file).some((e) => e.code === 'FILE_IN_CLOUD')) return 'unchanged';
    const note: LoadError = {
      file: path.basename(file),
      id: card.id,
      code: 'FILE_IN_CLOUD',
      message:
        'iCloud has moved this file to the cloud to free space (only .' +
        `${path.basename(file)}.icloud is left): the card is kept as it was; open the folder in Finder, or choose Keep Downloaded, to bring the file back`,
    };
    this.registry.setErrors(file, [...this.registry.errorsOf(file), note]);
    this.emit({ type: 'card-changed', id: card.id });
    return 'unchanged';
  }

  /** Takes the FILE_IN_CLOUD note off `file`, now there again. */
  private backFromCloud(file: string): void {
    const notes = this.registry.errorsOf(file);
    if (!notes.some((e) => e.code === 'FILE_IN_CLOUD')) return;
    this.registry.setErrors(
      file,
      notes.filter((e) => e.code !== 'FILE_IN_CLOUD'),
    );
    const card = this.registry.byFile(file);
    if (card) this.emit({ type: 'card-changed', id: card.id });
  }

  /** Notes a card whose file vanished by hand, with the change that recorded its deletion. */
  private rememberGone(id: string, changeId: number | undefined): void {
    const now = Date.now();
    for (const [other, g] of this.gone) if (now - g.at > CARD_RETURN_MS) this.gone.delete(other);
    this.gone.set(id, { changeId, at: now });
  }

  /** The card `id` as it vanished (see rememberGone) when that was at most CARD_RETURN_MS ago; forgets it. */
  private returning(id: string): { changeId: number | undefined } | undefined {
    const g = this.gone.get(id);
    this.gone.delete(id);
    return g && Date.now() - g.at <= CARD_RETURN_MS ? g : undefined;
  }

  /** A file gave up `id`: the next file (by name) that was refused it loads, else the card is removed. */
  private idFreed(id: string, mayReturn = false): void {
    const waiting = this.registry.filesWithDuplicateId(id);
    waiting.sort((a, b) => (claimRank(path.basename(a), id) < claimRank(path.basename(b), id) ? -1 : 1));
    for (const other of waiting) {
      if (!this.registry.has(id)) this.safeLoad(other, { importData: false });
    }
    if (!this.registry.has(id))
      this.emit(mayReturn ? { type: 'card-removed', id, mayReturn } : { type: 'card-removed', id });
  }

  private duplicate(file: string, id: string, holderName: string): LoadOutcome {
    return this.fail(
      file,
      'DUPLICATE_ID',
      `meta.id "${id}" is already used by ${holderName}; this file is ignored`,
      { id },
    );
  }

  /** Records a load error for `file` (its last good card, if any, stays). */
  private fail(
    file: string,
    code: string,
    message: string,
    at: { id?: string; path?: string; line?: number } = {},
  ): LoadOutcome {
    const name = path.basename(file);
    this.failed.add(file);
    this.registry.setErrors(file, [{ file: name, ...at, code, message }]);
    this.log.warn({ file: name, code }, message);
    this.emit({ type: 'file-error', id: at.id ?? '', file: name });
    return 'error';
  }

  /**
   * Moves a file's `data` into the store (`write`, returning the new version) next to its backup
   * (already written), then rewrites the file meta-only, unless it was saved again meanwhile
   * (`same` tells the bytes read: their hash, or a check of the file's stamp): that save is kept
   * and loaded next. Returns the file's hash now (`readHash` when the save was kept).
   * The meta-only bytes are written (to a temp file beside it) before any row changes: a disk
   * too full for them fails the import with nothing changed. Written after, they could fail with
   * the rows already replaced while the file still held its data, to be imported again at its
   * next load over every row written since.
   * `ownBackup` false: the backup is a copy an earlier attempt kept, which a failure leaves.
   * @throws what a write throws; then no row changed and neither backup nor temp file is left.
   */
  private importData(
    file: string,
    id: string,
    body: ManifestBody,
    backup: string,
    write: () => number,
    same: string | ((aside: string) => boolean),
    readHash: string,
    ownBackup = true,
  ): string {
    let meta: MetaOnly | undefined;
    let version: number;
    try {
      meta = metaOnlyTemp(file, body);
      version = write();
    } catch (err) {
      // a failed import leaves no backup behind (else every restart would add one); a copy an
      // earlier attempt kept stays, as it was
      if (ownBackup) fs.rmSync(backup, { force: true });
      if (meta) fs.rmSync(meta.tmp, { force: true });
      throw err;
    }
    return this.afterImport(file, id, version, meta, same, readHash);
  }

  /**
   * Whether the dropped-in `file` (its `bytes`) was imported already and only its rewrite without
   * data is missing: a copy of exactly these bytes is kept beside it (freeBackupPath's names) and
   * card `id` holds exactly its rows. Then importing it again would store the same rows once more
   * (a new version and History entry) and keep a second copy.
   */
  private importedBefore(file: string, bytes: Buffer, id: string, data: unknown): boolean {
    const kept = this.keptCopy(file, bytes) !== undefined;
    return kept && this.store.state(id).version > 0 && this.store.readJson(id) === JSON.stringify(data);
  }

  /**
   * The copy an import kept of the dropped-in `file` (freeBackupPath's names,
   * `<name>.<UTC stamp>.json` or `-2`, `-3` ... after the stamp) that holds exactly `bytes`, or
   * undefined when there is none.
   */
  private keptCopy(file: string, bytes: Buffer): string | undefined {
    const name = path.basename(file);
    const hash = contentHash(bytes);
    const copyTail = /^\.\d{8}T\d{6}Z(?:-\d+)?\.json$/;
    const same = fs
      .readdirSync(this.dataDir)
      .filter((n) => n.startsWith(name) && copyTail.test(n.slice(name.length)))
      .sort()
      .find((n) => {
        try {
          return contentHash(fs.readFileSync(path.join(this.dataDir, n))) === hash;
        } catch {
          return false;
        }
      });
    return same === undefined ? undefined : path.join(this.dataDir, same);
  }

  /** importData once the data is stored (at `version`): tells listeners, puts the meta-only file in place. */
  private afterImport(
    file: string,
    id: string,
    version: number,
    meta: MetaOnly,
    same: string | ((aside: string) => boolean),
    readHash: string,
  ): string {
    this.emit({ type: 'data-changed', id, version });
    return commitIfUnchanged(meta.tmp, file, same) === 'committed' ? contentHash(meta.text) : readHash;
  }
}

/** The meta-only text of an imported file, written to a temp file beside it (`tmp`) to be put in place. */
interface MetaOnly {
  tmp: string;
  text: string;
}

/** Writes `file`'s meta-only text to a synced temp file beside it (writeTemp). */
function metaOnlyTemp(file: string, body: ManifestBody): MetaOnly {
  const text = serializeManifest(body);
  return { tmp: writeTemp(file, text), text };
}

/** The message of an import that failed: a full disk says that nothing was imported and what to do. */
function importFailure(err: unknown): string {
  if (isDiskFull(err))
    return 'the disk is full: its data was not imported and nothing changed; save the file again once there is space';
  return `importing its data failed: ${(err as Error).message}`;
}

/** A file's manifest as the loader accepts it (see CardLoader.judge). */
interface Judged {
  id: string;
  /** The manifest without its `data`. */
  body: ManifestBody;
  /** The card that held the id when it was judged. */
  holder: Card | undefined;
  /** Another file holding the id that ranks after this one (it yields), or that is gone (moved). */
  rival: string | undefined;
  /** True when the rival's file is no longer on the disk: this file is the same card renamed. */
  moved?: boolean;
  /** The card this file held before. */
  previous: Card | undefined;
}

type Judgement = { ok: true; card: Judged } | { ok: false; apply: () => LoadOutcome };

/** The warning of a file whose data was a JSON string, parsed and imported. */
function rescuedWarning(file: string, id: string): LoadError {
  return {
    file: path.basename(file),
    id,
    code: 'DATA_RESCUED',
    path: 'data',
    message: 'data was a JSON string; it was parsed and imported',
  };
}

/**
 * The order in which files claim an id: the file named `<id>.json` first, then by file name
 * without its `.json`. (A string that sorts in that order.) Sync tools and file managers name a
 * copy after its original with something added (`weight (1).json`, `weight 2.json`,
 * `weight - Copy.json`, `weight (conflicted copy …).json`, `weight.sync-conflict-….json`); by
 * the whole name, a space or a dash sorts before the `.` of `.json`, so such a copy would win the
 * card from the file it copies. Without `.json`, the original's name is the start of the copy's
 * and sorts first.
 */
export function claimRank(fileName: string, id: string | undefined): string {
  const stem = fileName.endsWith('.json') ? fileName.slice(0, -'.json'.length) : fileName;
  return `${id !== undefined && fileName === `${id}.json` ? '0' : '1'}${stem}`;
}

/**
 * Whether `file` still claims card `id`: it is there and names that id, or cannot be read
 * whole right now (a save in progress keeps its claim until it is judged). A file that is gone,
 * or parses and names another id or none, has given the id up.
 */
function stillClaims(file: string, id: string): boolean {
  let bytes: Buffer;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    // not read: it keeps its claim until it is judged (and reported)
    if (st.size > MAX_CARD_FILE_BYTES) return true;
    bytes = fs.readFileSync(file);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  const v = parseManifestLoosely(bytes) as { meta?: { id?: unknown } } | undefined;
  return v === undefined || v?.meta?.id === id;
}

/** The `meta.id` a manifest file declares, read quickly for ordering; undefined when unreadable. */
function peekId(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_CARD_FILE_BYTES) return undefined;
    const v = parseManifestLoosely(fs.readFileSync(file)) as { meta?: { id?: unknown } } | undefined;
    return typeof v?.meta?.id === 'string' ? v.meta.id : undefined;
  } catch {
    return undefined;
  }
}
