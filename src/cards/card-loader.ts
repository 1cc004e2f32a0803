/**
 * Loads manifest files into the registry (REFERENCE section 2): lenient, so one bad field drops
 * that field and is reported, not the card; a file without `$schema` is skipped; an unsupported
 * `$schema`, unreadable JSON or a duplicate id is an error entry. Of two files with one id the
 * first by file name wins, whichever the watcher saw first. A file that fails keeps its last good
 * card until it is fixed (even back to the same bytes) or gone.
 * A file that carries `data` is an import: its rows move into the store in one transaction, the
 * original is kept beside it as `<name>.<stamp>.json`, and the file is rewritten meta-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../home/atomic-write.js';
import type { CardDataStore } from '../store/card-data-store.js';
import type { Card, CardRegistry, LoadError } from './card-registry.js';
import {
  backupFileName,
  contentHash,
  isManifestFileName,
  type ManifestBody,
  serializeManifest,
  splitData,
} from './manifest-file.js';
import { isManifestSchemaId } from './manifest-schema-id.js';
import { normaliseImportedData } from './data-normalise.js';
import { sanitizeAtLoad } from './validate-manifest.js';

/** What happened to a file when it was (re)loaded; `missing`: not there, nothing changed. */
export type LoadOutcome = 'loaded' | 'unchanged' | 'removed' | 'skipped' | 'error' | 'missing';

/** Something the loader tells the rest of the product about (the dashboard's live updates). */
export type CardEvent =
  | { type: 'card-changed'; id: string }
  | { type: 'card-removed'; id: string }
  | { type: 'data-changed'; id: string; version: number };

/** Reads manifest files into the registry. */
export class CardLoader {
  /** Files whose last load failed: their bytes are re-read even when the hash matches the card's. */
  private readonly failed = new Set<string>();

  constructor(
    private readonly dataDir: string,
    private readonly registry: CardRegistry,
    private readonly store: CardDataStore,
    private readonly emit: (e: CardEvent) => void,
    private readonly log: { warn: (obj: object, msg: string) => void },
  ) {}

  /** Loads every manifest file of the data folder, in file-name order (so the first file wins a duplicate id). */
  /** Whether the last load of `file` failed (invalid JSON, unreadable ...): its bytes are a half-finished edit. */
  hasFailed(file: string): boolean {
    return this.failed.has(file);
  }

  /** Records that we wrote `file` ourselves with valid content (its failure mark no longer applies). */
  wroteFile(file: string): void {
    this.failed.delete(file);
  }

  scanAll(): void {
    fs.mkdirSync(this.dataDir, { recursive: true });
    const names = fs
      .readdirSync(this.dataDir, { withFileTypes: true })
      .filter((d) => d.isFile() && isManifestFileName(d.name))
      .map((d) => d.name)
      .sort();
    for (const name of names) this.loadFile(path.join(this.dataDir, name));
  }

  /**
   * (Re)loads one file after it was added or changed. Content equal to what the registry holds
   * (our own write, or a touch) changes nothing (case P03). A missing file changes nothing either
   * (it may be mid-way through an editor's rename-and-replace save): only `fileGone` removes.
   */
  loadFile(file: string): LoadOutcome {
    const name = path.basename(file);
    if (!isManifestFileName(name) || path.dirname(file) !== this.dataDir) return 'skipped';
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      return this.fail(file, 'READ_FAILED', `cannot read file: ${(err as Error).message}`);
    }
    const hash = contentHash(text);
    const current = this.registry.byFile(file);
    if (current && current.hash === hash && !this.failed.has(file)) return 'unchanged';

    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      // a half-saved file keeps its last good version on screen until the next save
      return this.fail(file, 'INVALID_JSON', `not valid JSON: ${(err as Error).message}`, {
        id: current?.id,
      });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return this.fail(file, 'INVALID_JSON', 'a manifest must be a JSON object', { id: current?.id });
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
    if (typeof meta.label !== 'string' || meta.label.trim() === '') {
      return this.fail(file, 'MISSING_FIELD', 'meta.label must be a non-empty string', {
        id,
        path: 'meta.label',
      });
    }
    const holder = this.registry.get(id);
    const rival = holder && holder.file !== file ? holder.file : undefined;
    if (rival && path.basename(rival) < name) return this.duplicate(file, id, path.basename(rival));

    const { body, hasData, data } = splitData(obj);
    let finalHash = hash;
    const warnings: LoadError[] = [];
    if (hasData) {
      try {
        const incoming = normaliseImportedData(data);
        if (incoming.rescued) {
          warnings.push({ file: name, id, code: 'DATA_RESCUED', path: 'data', message: 'data was a JSON string; it was parsed and imported' });
        }
        finalHash = this.importData(file, text, id, body, incoming.data);
      } catch (err) {
        return this.fail(file, 'IMPORT_FAILED', `importing its data failed: ${(err as Error).message}`, {
          id,
        });
      }
    }
    const { manifest, dropped } = sanitizeAtLoad(body);
    const errors: LoadError[] = [
      ...dropped.map((d) => ({ file: name, id, code: 'FIELD_DROPPED', path: d.path, message: d.message })),
      ...warnings,
    ];
    const card: Card = { id, file, raw: body, manifest: manifest as Card['manifest'], hash: finalHash };
    if (rival) {
      // this file sorts first, so it takes the id (as a restart would); the other file yields
      this.registry.removeFile(rival);
      this.duplicate(rival, id, name);
    }
    this.registry.put(card);
    this.registry.setErrors(file, errors);
    this.failed.delete(file);
    this.emit({ type: 'card-changed', id });
    // a previous card of this file under another id is gone now, unless another file has that id
    if (current && current.id !== id) this.idFreed(current.id);
    return 'loaded';
  }

  /**
   * The file is gone (deleted by hand, or renamed away and not back within the settle window).
   * The card leaves the registry (or the next file refused its id takes it); its rows stay in the
   * store, so a file that comes back brings them back (case P01: never drop rows on a vanished file).
   */
  fileGone(file: string, outcome: LoadOutcome = 'removed'): LoadOutcome {
    this.failed.delete(file);
    const card = this.registry.removeFile(file);
    if (!card) return 'skipped';
    this.idFreed(card.id);
    return outcome;
  }

  /** A file gave up `id`: the next file (by name) that was refused it loads, else the card is removed. */
  private idFreed(id: string): void {
    for (const other of this.registry.filesWithDuplicateId(id).sort()) {
      if (!this.registry.has(id)) this.loadFile(other);
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
    at: { id?: string; path?: string } = {},
  ): LoadOutcome {
    const name = path.basename(file);
    this.failed.add(file);
    this.registry.setErrors(file, [{ file: name, ...at, code, message }]);
    this.log.warn({ file: name, code }, message);
    return 'error';
  }

  /** Moves a file's `data` into the store, keeps a backup, rewrites the file meta-only; returns the new file hash. */
  private importData(
    file: string,
    originalText: string,
    id: string,
    body: ManifestBody,
    data: unknown,
  ): string {
    const backup = path.join(this.dataDir, backupFileName(path.basename(file)));
    writeFileAtomic(backup, originalText);
    const version = this.store.replace(id, data, 'file', 'import');
    const text = serializeManifest(body);
    writeFileAtomic(file, text);
    this.emit({ type: 'data-changed', id, version });
    return contentHash(text);
  }
}
