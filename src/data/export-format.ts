/**
 * The export archive format `klebb.export.v1` (docs/EXPORT.md): a zip whose last entry,
 * `klebb-export.json`, lists every other file with its size, row count and sha256. Readers gate
 * on `formatVersion` only and ignore keys they do not know.
 */
import type { ReminderChoices } from '../push/reminder-choices.js';

/** The format name written into every export manifest. */
export const EXPORT_FORMAT = 'klebb.export.v1';
/** The only format version this build reads and writes. */
export const EXPORT_FORMAT_VERSION = 1;
/** Name of the manifest entry (always the last entry of the zip). */
export const EXPORT_MANIFEST_NAME = 'klebb-export.json';

/** How a card's data travels: one JSON row per line, one JSON document, or no data at all. */
export type CardDataKind = 'rows' | 'value' | 'none';

/** One card of the inventory. `rows`: array elements, 1 for a non-null document, else 0. */
export interface InventoryCard {
  id: string;
  /** The manifest file, byte for byte as it lay in the data folder (meta only). */
  file: string;
  data: CardDataKind;
  /** `cards/<id>.rows.jsonl` (rows) or `cards/<id>.value.json` (value); absent for none. */
  dataFile?: string;
  rows: number;
}

/** One file of the archive: bytes, sha256 (hex) and, for line files, its line count. */
export interface InventoryFile {
  file: string;
  bytes: number;
  sha256: string;
  rows?: number;
}

/** The manifest entry. */
export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  appVersion: string;
  exportedAt: string;
  instanceName?: string;
  inventory: {
    cards: InventoryCard[];
    samples: { pushes: number; samples: number; metrics: number };
    conversations: { conversations: number; messages: number };
    reports: string[];
    /** Files of `data/_meta` (the feedback log), under `meta/`. */
    meta: string[];
    files: InventoryFile[];
  };
  /**
   * Settings that are no file of their own: the reminders' on/off and privacy, quiet hours and a
   * pause. Absent in archives of older builds (an import then leaves the home's settings alone).
   */
  settings?: { reminders: ReminderChoices };
}

/** Archive names of the table files (one JSON object per line, ordered by key). */
export const TABLE_FILES = {
  pushes: 'samples/pushes.jsonl',
  samples: 'samples/samples.jsonl',
  metrics: 'samples/metrics-seen.jsonl',
  conversations: 'conversations/conversations.jsonl',
  messages: 'conversations/messages.jsonl',
  /**
   * Which row of each day on a card the phone's samples wrote (`hae_card_rows`), so that the
   * phone's next push after an import updates that row rather than adding its reading beside it.
   */
  phoneRows: 'cards/phone-rows.jsonl',
} as const;

/**
 * Table files an archive may lack: archives of older builds were written without them and
 * still import (the table then starts empty in the new home).
 */
export const OPTIONAL_TABLE_FILES: ReadonlySet<string> = new Set([TABLE_FILES.phoneRows]);

/** Archive name of a card's manifest. */
export const cardFileName = (id: string) => `cards/${id}.json`;
/** Archive name of a card's data file. */
export const cardDataFileName = (id: string, kind: 'rows' | 'value') =>
  kind === 'rows' ? `cards/${id}.rows.jsonl` : `cards/${id}.value.json`;
