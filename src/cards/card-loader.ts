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
import { jsonShapeProblem } from '../common/json-guard.js';
import { jsonSyntaxProblem } from '../common/json-syntax.js';
import { decodeUtf8Strict, jsonNumberProblem } from '../common/json-text.js';
import type { LoadError } from '../common/view-types.js';
import { writeFileAtomic, writeTemp } from '../home/atomic-write.js';
import { commitIfUnchanged } from '../home/commit-file.js';
import { isKnownMetric } from '../ingest/hae/format/catalogue.js';
import type { CardDataStore } from '../store/card-data-store.js';
import { inChangeSet } from '../store/change-scope.js';
import type { Card, CardRegistry } from './card-registry.js';
import { normaliseImportedData } from './data-normalise.js';
import {
  backupFileName,
  contentHash,
  isManifestFileName,
  type ManifestBody,
  serializeManifest,
  splitData,
} from './manifest-file.js';
import { isManifestSchemaId } from './manifest-schema-id.js';
import { sanitizeAtLoad } from './validate-manifest.js';

/** Options of one load. */
export interface LoadOptions {
  /** Import a `data` key (default true); false when a duplicate takes over a freed id. */
  importData?: boolean;
}

/** What happened to a file when it was (re)loaded; `missing`: not there, nothing changed. */
export type LoadOutcome = 'loaded' | 'unchanged' | 'removed' | 'skipped' | 'error' | 'missing';

/** Something the loader tells the rest of the product about (the dashboard's live updates). */
export type CardEvent =
  | { type: 'card-changed'; id: string }
  | { type: 'card-removed'; id: string }
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
   * claimRank): for an id two files claim, `<id>.json` wins, else the earlier name; so the
   * winner of a duplicate is the same at start-up as at run time, and a stray copy never
   * imports over the card it duplicates. One bad file never stops the others.
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
  }

  /** loadFile that never throws: an unexpected failure becomes the file's error entry. */
  safeLoad(file: string, opts: LoadOptions = {}): LoadOutcome {
    // a hand edit is a change set of its own, whoever noticed it first
    return inChangeSet({ actor: 'file', fresh: true }, () => {
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
   */
  loadFile(file: string, opts: LoadOptions = {}): LoadOutcome {
    const name = path.basename(file);
    if (!isManifestFileName(name) || path.dirname(file) !== this.dataDir) return 'skipped';
    let bytes: Buffer;
    try {
      // only regular files: reading a FIFO named *.json would block the whole process
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) {
        const link = fs.lstatSync(file, { throwIfNoEntry: false });
        if (link?.isSymbolicLink())
          return this.fail(file, 'READ_FAILED', 'a symbolic link whose target is missing');
        return 'missing';
      }
      if (!st.isFile()) return this.fail(file, 'READ_FAILED', 'not a regular file');
      bytes = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      return this.fail(file, 'READ_FAILED', `cannot read file: ${(err as Error).message}`);
    }
    const hash = contentHash(bytes);
    const current = this.registry.byFile(file);
    if (current && current.hash === hash && !this.failed.has(file)) return 'unchanged';
    // bytes that are not UTF-8 would be read as U+FFFD and written back changed
    const decoded = decodeUtf8Strict(bytes);
    if (decoded.problem) {
      const { path: at, message } = decoded.problem;
      return this.fail(file, 'INVALID_UTF8', `${at} ${message}`, { id: current?.id, path: at });
    }
    const text = decoded.text;

    let parsed: unknown;
    // editors on some systems start UTF-8 files with a byte order mark
    const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      // a half-saved file keeps its last good version on screen until the next save
      const at = jsonSyntaxProblem(json, err as Error);
      return this.fail(
        file,
        'INVALID_JSON',
        `not valid JSON at line ${at.line}, column ${at.column}: ${at.message}`,
        { id: current?.id, line: at.line },
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return this.fail(file, 'INVALID_JSON', 'a manifest must be a JSON object', { id: current?.id });
    }
    const shape = jsonShapeProblem(parsed);
    if (shape) return this.fail(file, 'INVALID_JSON', `${shape.path} ${shape.message}`, { id: current?.id });
    const number = jsonNumberProblem(text);
    if (number) {
      const { path: at, message } = number;
      return this.fail(file, 'NUMBER_OUT_OF_RANGE', `${at} ${message}`, { id: current?.id, path: at });
    }
    const obj = parsed as Record<string, unknown>;
    if (!Object.hasOwn(obj, '$schema')) return this.fileGone(file, 'skipped');
    if (!isManifestSchemaId(obj.$schema)) {
      return this.fail(
        file,
        'UNSUPPORTED_SCHEMA',
        `unsupported $schema ${JSON.stringify(obj.$schema)} (expected "klebb.datafile.v1")`,
      );
    }
    const meta = obj.meta as Record<string, unknown> | undefined;
    if (!meta || typeof meta !== 'object' || Array.isArray(meta)) {
      return this.fail(file, 'MISSING_FIELD', 'meta must be an object', { path: 'meta' });
    }
    const id = meta.id;
    if (typeof id !== 'string' || id === '') {
      return this.fail(file, 'MISSING_FIELD', 'meta.id must be a non-empty string', { path: 'meta.id' });
    }
    if (meta.label !== undefined && meta.label !== null && typeof meta.label !== 'string') {
      return this.fail(file, 'MISSING_FIELD', 'meta.label must be a non-empty string', {
        id,
        path: 'meta.label',
      });
    }
    const holder = this.registry.get(id);
    const rival = holder && holder.file !== file ? holder.file : undefined;
    if (rival && claimRank(path.basename(rival), id) < claimRank(name, id)) {
      return this.duplicate(file, id, path.basename(rival));
    }

    const { body, hasData, data } = splitData(obj);
    let finalHash = hash;
    const warnings: LoadError[] = [];
    if (hasData && opts.importData === false) {
      // a former duplicate taking a freed id keeps its rows to itself: its (likely stale) data
      // must not replace the card's rows; the file is left as it is
      warnings.push({
        file: name,
        id,
        code: 'DATA_NOT_IMPORTED',
        path: 'data',
        message:
          'this file took over an id another file gave up; its data was not imported (remove its data key, or re-add the file to import it)',
      });
    } else if (hasData) {
      try {
        const incoming = normaliseImportedData(data);
        if (incoming.rescued) {
          warnings.push({
            file: name,
            id,
            code: 'DATA_RESCUED',
            path: 'data',
            message: 'data was a JSON string; it was parsed and imported',
          });
        }
        finalHash = this.importData(file, text, hash, id, body, incoming.data);
      } catch (err) {
        return this.fail(file, 'IMPORT_FAILED', `importing its data failed: ${(err as Error).message}`, {
          id,
        });
      }
    }
    // an unknown meta.ingest.metric is dropped at load
    const { manifest, dropped } = sanitizeAtLoad(body, { isKnownMetric });
    const errors: LoadError[] = [
      ...dropped.map((d) => ({ file: name, id, code: 'FIELD_DROPPED', path: d.path, message: d.message })),
      ...warnings,
    ];
    const card: Card = { id, file, raw: body, manifest: manifest as Card['manifest'], hash: finalHash };
    if (rival) {
      // this file ranks first, so it takes the id (as a restart would); the others yield and
      // their messages name the new holder
      this.registry.removeFile(rival);
      this.duplicate(rival, id, name);
      for (const loser of this.registry.filesWithDuplicateId(id))
        if (loser !== file) this.duplicate(loser, id, name);
    }
    if (this.recordChanges) {
      const before = current && current.id === id ? serializeManifest(current.raw) : undefined;
      const after = serializeManifest(body);
      if (before !== after && !this.store.changes.isLatestManifest(id, after))
        this.store.changes.recordManifest(id, name, before, after);
    }
    this.registry.put(card);
    this.registry.setErrors(file, errors);
    this.failed.delete(file);
    this.emit({ type: 'card-changed', id });
    // a previous card of this file under another id is gone now, unless another file has that id
    if (current && current.id !== id) this.idFreed(current.id);
    if (!holder) this.onCardArrived?.(id);
    return 'loaded';
  }

  /**
   * The file is gone (deleted by hand, or renamed away and not back within the settle window).
   * The card leaves the registry (or the next file refused its id takes it); its rows stay in the
   * store, so a file that comes back brings them back (never drop rows on a vanished file).
   */
  fileGone(file: string, outcome: LoadOutcome = 'removed'): LoadOutcome {
    const hadFailed = this.failed.delete(file);
    const card = this.registry.removeFile(file);
    // a broken file deleted: its problem leaves the list
    if (hadFailed) this.emit({ type: 'file-error', id: '', file: path.basename(file) });
    if (!card) return 'skipped';
    // a deletion another Klebb process made (and recorded) is not a hand edit
    if (this.recordChanges && !this.store.changes.isLatestManifest(card.id, undefined)) {
      inChangeSet({ actor: 'file', fresh: true }, () =>
        this.store.changes.recordManifest(
          card.id,
          path.basename(file),
          serializeManifest(card.raw),
          undefined,
        ),
      );
    }
    this.idFreed(card.id);
    return outcome;
  }

  /** A file gave up `id`: the next file (by name) that was refused it loads, else the card is removed. */
  private idFreed(id: string): void {
    const waiting = this.registry.filesWithDuplicateId(id);
    waiting.sort((a, b) => (claimRank(path.basename(a), id) < claimRank(path.basename(b), id) ? -1 : 1));
    for (const other of waiting) {
      if (!this.registry.has(id)) this.safeLoad(other, { importData: false });
    }
    if (!this.registry.has(id)) this.emit({ type: 'card-removed', id });
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
   * Moves a file's `data` into the store, keeps a backup, rewrites the file meta-only (unless it
   * was saved again meanwhile: that save is kept and loaded next); returns the file's hash now.
   */
  private importData(
    file: string,
    originalText: string,
    originalHash: string,
    id: string,
    body: ManifestBody,
    data: unknown,
  ): string {
    const backup = path.join(this.dataDir, backupFileName(path.basename(file)));
    writeFileAtomic(backup, originalText);
    let version: number;
    try {
      version = this.store.replace(id, data, 'file', 'import');
    } catch (err) {
      // a failed import leaves no backup behind (else every restart would add one)
      fs.rmSync(backup, { force: true });
      throw err;
    }
    const text = serializeManifest(body);
    const outcome = commitIfUnchanged(writeTemp(file, text), file, originalHash);
    this.emit({ type: 'data-changed', id, version });
    return outcome === 'committed' ? contentHash(text) : originalHash;
  }
}

/**
 * The order in which files claim an id: the file named `<id>.json` first, then by file name.
 * (A string that sorts in that order.)
 */
export function claimRank(fileName: string, id: string | undefined): string {
  return `${id !== undefined && fileName === `${id}.json` ? '0' : '1'}${fileName}`;
}

/** The `meta.id` a manifest file declares, read quickly for ordering; undefined when unreadable. */
function peekId(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return undefined;
    const text = fs.readFileSync(file, 'utf8');
    const v = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as { meta?: { id?: unknown } };
    return typeof v?.meta?.id === 'string' ? v.meta.id : undefined;
  } catch {
    return undefined;
  }
}
