/**
 * The in-memory index of loaded cards: which file holds which card, the manifest as written in
 * the file (`raw`, used for patches so nothing of the file is lost), the manifest as served
 * (`manifest`, with invalid optional fields dropped at load), and the load errors per file.
 * Memory is updated only after a write to disk has succeeded.
 */
import type { LoadError } from '../common/view-types.js';
import type { ManifestBody } from './manifest-file.js';

/** One loaded card. */
export interface Card {
  id: string;
  /** Absolute path of its manifest file. */
  file: string;
  /** The file's manifest (meta-only), exactly as parsed. */
  raw: ManifestBody;
  /** What the product acts on: `raw` with invalid optional fields dropped (docs/MANIFEST-SCHEMA.md, lenient load). */
  manifest: ManifestBody & { meta: Record<string, unknown> };
  /** sha256 of the file bytes last read or written (own writes are recognised by content). */
  hash: string;
}

/** Cards by id and by file, plus the current load errors by file. */
export class CardRegistry {
  private readonly byId = new Map<string, Card>();
  private readonly idByFile = new Map<string, string>();
  private readonly errorsByFile = new Map<string, LoadError[]>();
  /** Grows on every change of cards or errors (for caches of derived answers). */
  generation = 0;

  get(id: string): Card | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The card loaded from `file`, if any. */
  byFile(file: string): Card | undefined {
    const id = this.idByFile.get(file);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Every card, in insertion order. */
  all(): Card[] {
    return [...this.byId.values()];
  }

  size(): number {
    return this.byId.size;
  }

  /** Adds or replaces a card (its id must not be held by another file; the caller checks). */
  put(card: Card): void {
    this.generation++;
    const previous = this.idByFile.get(card.file);
    if (previous !== undefined && previous !== card.id) this.byId.delete(previous);
    this.byId.set(card.id, card);
    this.idByFile.set(card.file, card.id);
  }

  /** Forgets the card held by `file`; returns it. */
  removeFile(file: string): Card | undefined {
    this.generation++;
    const id = this.idByFile.get(file);
    this.idByFile.delete(file);
    this.errorsByFile.delete(file);
    if (id === undefined) return undefined;
    const card = this.byId.get(id);
    if (card?.file === file) this.byId.delete(id);
    return card;
  }

  setErrors(file: string, errors: LoadError[]): void {
    this.generation++;
    if (errors.length === 0) this.errorsByFile.delete(file);
    else this.errorsByFile.set(file, errors);
  }

  /** The load errors and notes of one file. */
  errorsOf(file: string): LoadError[] {
    return this.errorsByFile.get(file) ?? [];
  }

  /** Every load error, sorted by file name. */
  errors(): LoadError[] {
    return [...this.errorsByFile.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([, e]) => e);
  }

  /** Every file the registry knows of (absolute paths): those holding cards and those with load errors. */
  files(): string[] {
    return [...new Set([...this.idByFile.keys(), ...this.errorsByFile.keys()])];
  }

  /** Files whose last load failed because their id was taken (to retry when that id frees up). */
  filesWithDuplicateId(id: string): string[] {
    return [...this.errorsByFile.entries()]
      .filter(([, errs]) => errs.some((e) => e.code === 'DUPLICATE_ID' && e.id === id))
      .map(([file]) => file);
  }
}
