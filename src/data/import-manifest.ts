/**
 * Reading and checking `klebb-export.json` of an uploaded archive against the archive itself:
 * the format gate (`format`, `formatVersion`), the inventory's shape (TypeBox), and that the
 * files it lists are exactly the archive's entries, each with a name this format knows. Any
 * mismatch is a 422 naming the file: nothing is unpacked from an archive that fails here.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { checkCardId } from '../cards/card-id.js';
import { type ErrorCode, invalid } from '../errors.js';
import { IMPORT_MAX_MANIFEST_BYTES } from '../limits.js';
import {
  cardDataFileName,
  cardFileName,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  EXPORT_MANIFEST_NAME,
  OPTIONAL_TABLE_FILES,
  TABLE_FILES,
} from './export-format.js';
import { checkedArchiveChoices } from './reminder-settings.js';
import type { SafeZip } from './zip-reader.js';

const Count = Type.Integer({ minimum: 0 });

/** The manifest as this build reads it (unknown keys are allowed and ignored). */
export const ManifestSchema = Type.Object({
  format: Type.String(),
  formatVersion: Type.Integer(),
  appVersion: Type.Optional(Type.String()),
  exportedAt: Type.Optional(Type.String()),
  instanceName: Type.Optional(Type.String()),
  inventory: Type.Object({
    cards: Type.Array(
      Type.Object({
        id: Type.String(),
        file: Type.String(),
        data: Type.Union([Type.Literal('rows'), Type.Literal('value'), Type.Literal('none')]),
        dataFile: Type.Optional(Type.String()),
        rows: Count,
      }),
    ),
    samples: Type.Object({ pushes: Count, samples: Count, metrics: Count }),
    conversations: Type.Object({ conversations: Count, messages: Count }),
    reports: Type.Array(Type.String()),
    meta: Type.Array(Type.String()),
    files: Type.Array(
      Type.Object({
        file: Type.String(),
        bytes: Count,
        sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
        rows: Type.Optional(Count),
      }),
    ),
  }),
  /** Checked apart (checkedArchiveChoices), so each bad field is named in the person's terms. */
  settings: Type.Optional(Type.Object({ reminders: Type.Optional(Type.Unknown()) })),
});

/** A checked manifest. */
export type CheckedManifest = Static<typeof ManifestSchema>;

const refuse = (code: ErrorCode, message: string) => invalid(message, undefined, code);

async function readAll(zip: SafeZip, name: string, max: number): Promise<Buffer> {
  const e = zip.entries.get(name);
  if (!e)
    throw refuse(
      'IMPORT_NO_MANIFEST',
      `the archive has no ${name}: it is not a Klebb export, or it was cut short`,
    );
  if (e.size > max) throw refuse('IMPORT_MANIFEST_TOO_LARGE', `${name} is larger than ${max} bytes`);
  const rs = await zip.open(e);
  const parts: Buffer[] = [];
  for await (const c of rs) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Archive names a report or meta file may have: one plain name under its folder. */
const plainUnder = (folder: string, f: string) =>
  f.startsWith(`${folder}/`) &&
  /^[^/]+$/.test(f.slice(folder.length + 1)) &&
  !f.slice(folder.length + 1).startsWith('.');

/**
 * Reads the manifest and checks it against the archive.
 * @throws 422 IMPORT_NO_MANIFEST, IMPORT_BAD_MANIFEST (not JSON, or a field of the wrong shape,
 *   named in `details`), IMPORT_WRONG_FORMAT, IMPORT_WRONG_VERSION, IMPORT_INVENTORY_MISMATCH
 *   (a listed file missing, an entry not listed, a card whose files do not match its id); the
 *   reminder settings (`settings.reminders`) come back checked, as ReminderChoices.
 */
export async function readManifest(zip: SafeZip): Promise<CheckedManifest> {
  const bytes = await readAll(zip, EXPORT_MANIFEST_NAME, IMPORT_MAX_MANIFEST_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw refuse(
      'IMPORT_BAD_MANIFEST',
      `${EXPORT_MANIFEST_NAME} is not valid JSON: ${(err as Error).message}`,
    );
  }
  const m = parsed as { format?: unknown; formatVersion?: unknown };
  if (m?.format !== EXPORT_FORMAT) {
    throw refuse(
      'IMPORT_WRONG_FORMAT',
      `${EXPORT_MANIFEST_NAME} names format ${JSON.stringify(m?.format)}, not ${EXPORT_FORMAT}`,
    );
  }
  if (m.formatVersion !== EXPORT_FORMAT_VERSION) {
    throw refuse(
      'IMPORT_WRONG_VERSION',
      `this archive is format version ${JSON.stringify(m.formatVersion)}; this Klebb reads version ${EXPORT_FORMAT_VERSION}`,
    );
  }
  if (!Value.Check(ManifestSchema, parsed)) {
    const details = [...Value.Errors(ManifestSchema, parsed)]
      .slice(0, 10)
      .map((e) => ({ path: `manifest${e.path.replace(/\//g, '.')}`, message: e.message }));
    throw invalid(
      `${EXPORT_MANIFEST_NAME} does not describe an inventory this Klebb can read`,
      details,
      'IMPORT_BAD_MANIFEST',
    );
  }
  checkInventory(parsed, zip);
  if (parsed.settings?.reminders !== undefined)
    parsed.settings.reminders = checkedArchiveChoices(parsed.settings.reminders);
  return parsed;
}

function checkInventory(m: CheckedManifest, zip: SafeZip): void {
  const inv = m.inventory;
  const mismatch = (msg: string) => refuse('IMPORT_INVENTORY_MISMATCH', msg);
  const listed = new Set<string>();
  for (const f of inv.files) {
    if (listed.has(f.file)) throw mismatch(`${f.file} is listed twice`);
    listed.add(f.file);
    if (!zip.entries.has(f.file))
      throw mismatch(`${f.file} is listed in the inventory but missing from the archive`);
  }
  for (const name of zip.entries.keys()) {
    if (name !== EXPORT_MANIFEST_NAME && !listed.has(name)) {
      throw mismatch(`${name} is in the archive but not in its inventory`);
    }
  }
  const known = new Set<string>(Object.values(TABLE_FILES));
  const ids = new Set<string>();
  for (const c of inv.cards) {
    const bad = checkCardId(c.id);
    if (bad) throw refuse('IMPORT_BAD_MANIFEST', `card id ${JSON.stringify(c.id)}: ${bad.message}`);
    if (ids.has(c.id)) throw mismatch(`card ${c.id} is listed twice`);
    ids.add(c.id);
    if (c.file !== cardFileName(c.id))
      throw mismatch(`card ${c.id} names file ${c.file}, expected ${cardFileName(c.id)}`);
    known.add(c.file);
    if (c.data === 'none') {
      if (c.dataFile !== undefined) throw mismatch(`card ${c.id} has no data but names ${c.dataFile}`);
    } else if (c.dataFile !== cardDataFileName(c.id, c.data)) {
      throw mismatch(
        `card ${c.id} names data file ${String(c.dataFile)}, expected ${cardDataFileName(c.id, c.data)}`,
      );
    } else known.add(c.dataFile);
  }
  for (const r of inv.reports) if (plainUnder('reports', r)) known.add(r);
  for (const r of inv.meta) if (plainUnder('meta', r)) known.add(r);
  for (const f of listed) {
    if (!known.has(f))
      throw mismatch(`${f} is not a file this format knows (not a listed card, report or table)`);
  }
  for (const t of Object.values(TABLE_FILES))
    if (!listed.has(t) && !OPTIONAL_TABLE_FILES.has(t)) throw mismatch(`${t} is missing from the inventory`);
}
