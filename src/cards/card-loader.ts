/**
 * Loads manifest files into the registry (REFERENCE section 2): lenient, so one bad field drops
 * that field and is reported, not the card; a file without `$schema` is skipped; an unsupported
 * `$schema`, unreadable JSON or a duplicate id is an error entry (the first file wins).
 * A file that carries `data` is an import: its rows move into the store in one transaction, the
 * original is kept beside it as `<name>.<stamp>.json`, and the file is rewritten meta-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../home/atomic-write.js';
import type { CardDataStore } from '../store/card-data-store.js';
import { type Card, type CardRegistry, type LoadError } from './card-registry.js';
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

/** What happened to a file when it was (re)loaded. */
export type LoadOutcome = 'loaded' | 'unchanged' | 'removed' | 'skipped' | 'error';

/** Something the loader tells the rest of the product about (the dashboard's live updates). */
export type CardEvent =
  | { type: 'card-changed'; id: string }
  | { type: 'card-removed'; id: string }
  | { type: 'data-changed'; id: string; version: number };

/** Reads manifest files into the registry. */
export class CardLoader {
  constructor(
    private readonly dataDir: string,
    private readonly registry: CardRegistry,
    private readonly store: CardDataStore,
    private readonly emit: (e: CardEvent) => void,
    private readonly log: { warn: (obj: object, msg: string) => void },
  ) {}

  /** Loads every manifest file of the data folder, in file-name order (so the first file wins a duplicate id). */
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
   * (our own write, or a touch) changes nothing (case P03).
   */
  loadFile(file: string): LoadOutcome {
    const name = path.basename(file);
    if (!isManifestFileName(name) || path.dirname(file) !== this.dataDir) return 'skipped';
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.fileGone(file);
      return this.fail(file, { file: name, code: 'READ_FAILED', message: `cannot read file: ${(err as Error).message}` });
    }
    const hash = contentHash(text);
    const current = this.registry.byFile(file);
    if (current && current.hash === hash) return 'unchanged';

    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      // a half-saved file keeps its last good version on screen until the next save
      return this.fail(file, { file: name, id: current?.id, code: 'INVALID_JSON', message: `not valid JSON: ${(err as Error).message}` });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return this.fail(file, { file: name, code: 'INVALID_JSON', message: 'a manifest must be a JSON object' });
    }
    const obj = parsed as Record<string, unknown>;
    if (!Object.hasOwn(obj, '$schema')) return this.fileGone(file, 'skipped');
    if (!isManifestSchemaId(obj.$schema)) {
      return this.fail(file, {
        file: name,
        code: 'UNSUPPORTED_SCHEMA',
        message: `unsupported $schema ${JSON.stringify(obj.$schema)} (expected "klebb.datafile.v1")`,
      });
    }
    const meta = obj.meta as Record<string, unknown> | undefined;
    if (!meta || typeof meta !== 'object' || Array.isArray(meta)) {
      return this.fail(file, { file: name, code: 'MISSING_FIELD', path: 'meta', message: 'meta must be an object' });
    }
    const id = meta.id;
    if (typeof id !== 'string' || id === '') {
      return this.fail(file, { file: name, code: 'MISSING_FIELD', path: 'meta.id', message: 'meta.id must be a non-empty string' });
    }
    if (typeof meta.label !== 'string' || meta.label === '') {
      return this.fail(file, { file: name, id, code: 'MISSING_FIELD', path: 'meta.label', message: 'meta.label must be a non-empty string' });
    }
    const holder = this.registry.get(id);
    if (holder && holder.file !== file) {
      return this.fail(file, {
        file: name,
        id,
        code: 'DUPLICATE_ID',
        message: `meta.id "${id}" is already used by ${path.basename(holder.file)}; this file is ignored`,
      });
    }

    const { body, hasData, data } = splitData(obj);
    let finalHash = hash;
    if (hasData) {
      try {
        finalHash = this.importData(file, text, id, body, data);
      } catch (err) {
        return this.fail(file, { file: name, id, code: 'IMPORT_FAILED', message: `importing its data failed: ${(err as Error).message}` });
      }
    }
    const { manifest, dropped } = sanitizeAtLoad(body);
    const errors: LoadError[] = dropped.map((d) => ({
      file: name,
      id,
      code: 'FIELD_DROPPED',
      path: d.path,
      message: d.message,
    }));
    // a previous card of this file under another id is gone now
    if (current && current.id !== id) this.emit({ type: 'card-removed', id: current.id });
    const card: Card = {
      id,
      file,
      raw: body,
      manifest: manifest as Card['manifest'],
      hash: finalHash,
    };
    this.registry.put(card);
    this.registry.setErrors(file, errors);
    this.emit({ type: 'card-changed', id });
    if (current && current.id !== id) this.retryDuplicates(current.id);
    return 'loaded';
  }

  /**
   * The file is gone (deleted by hand, or renamed away and not back within the settle window).
   * The card leaves the registry; its rows stay in the store, so a file that comes back brings
   * them back (case P01: never drop rows on a vanished file).
   */
  fileGone(file: string, outcome: LoadOutcome = 'removed'): LoadOutcome {
    const card = this.registry.removeFile(file);
    if (card) {
      this.emit({ type: 'card-removed', id: card.id });
      this.retryDuplicates(card.id);
    }
    return card ? outcome : 'skipped';
  }

  private retryDuplicates(id: string): void {
    for (const other of this.registry.filesWithDuplicateId(id)) {
      if (!this.registry.has(id)) this.loadFile(other);
    }
  }

  private fail(file: string, error: LoadError): LoadOutcome {
    this.registry.setErrors(file, [error]);
    this.log.warn({ file: error.file, code: error.code }, error.message);
    return 'error';
  }

  /** Moves a file's `data` into the store, keeps a backup, rewrites the file meta-only; returns the new file hash. */
  private importData(file: string, originalText: string, id: string, body: ManifestBody, data: unknown): string {
    const backup = path.join(this.dataDir, backupFileName(path.basename(file)));
    writeFileAtomic(backup, originalText);
    const version = this.store.replace(id, data, 'file', 'import');
    const text = serializeManifest(body);
    writeFileAtomic(file, text);
    this.emit({ type: 'data-changed', id, version });
    return contentHash(text);
  }
}
