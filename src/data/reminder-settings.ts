/**
 * Reminder settings travelling with a home: an export writes them into its manifest
 * (`settings.reminders`, which readers that do not know it ignore), a snapshot into
 * `reminders.json`, and an import, a restore or a roll back puts them in place for the cards it
 * brings. An archive or snapshot without them leaves the home's settings as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { invalid } from '../errors.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { MAX_NOTIFICATION_ITEMS } from '../limits.js';
import { NotificationState, type StateFile } from '../push/notification-state.js';
import { adoptChoices, checkChoices, choicesOf, type ReminderChoices } from '../push/reminder-choices.js';
import { type Selection, selectedCards } from './import-apply.js';
import type { StagedPaths } from './staged-home.js';

/** The reminder settings of the home at `home` as its state file holds them (defaults without one). */
export function homeReminderChoices(home: string): ReminderChoices {
  return choicesOf(new NotificationState(home).data);
}

/**
 * Checks the reminder settings of an archive's manifest.
 * @throws 422 IMPORT_BAD_MANIFEST naming each field that holds no value Klebb writes.
 */
export function checkedArchiveChoices(raw: unknown): ReminderChoices {
  const r = checkChoices(raw);
  if ('choices' in r) return r.choices;
  const at = (p: string) => `manifest.settings.reminders${p ? `.${p}` : ''}`;
  throw invalid(
    `klebb-export.json: settings.reminders holds values Klebb does not write (${at(r.problems[0].path)} ${r.problems[0].message})`,
    r.problems.slice(0, 10).map((p) => ({ path: at(p.path), message: p.message })),
    'IMPORT_BAD_MANIFEST',
  );
}

/** Writes reminder settings into a staged home (an unpacked archive or a snapshot being built). */
export function writeStagedChoices(staged: StagedPaths, choices: ReminderChoices): void {
  writeFileAtomic(staged.reminders, `${JSON.stringify(choices)}\n`, 0o600);
}

/** The staged home's reminder settings, or null when it carries none (or none Klebb wrote). */
export function readStagedChoices(staged: StagedPaths): ReminderChoices | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(staged.reminders, 'utf8'));
  } catch {
    return null;
  }
  const r = checkChoices(raw);
  return 'choices' in r ? r.choices : null;
}

/** The reminder ids (`<card id>#<item id>`) the staged manifests of `cardIds` define. */
function definedReminders(staged: StagedPaths, cardIds: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const id of cardIds) {
    let manifest: { meta?: { notifications?: { items?: unknown } } } | undefined;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(staged.cards, `${id}.json`), 'utf8'));
    } catch {
      continue;
    }
    const items = manifest?.meta?.notifications?.items;
    if (!Array.isArray(items)) continue;
    for (const item of items.slice(0, MAX_NOTIFICATION_ITEMS)) {
      const itemId = (item as { id?: unknown } | null)?.id;
      if (typeof itemId === 'string') out.add(`${id}#${itemId}`);
    }
  }
  return out;
}

/** A notification state to change: the running server's, or one read from a home's file. */
export interface ReminderTarget {
  data: StateFile;
  save(): void;
}

/**
 * Puts the staged home's reminder settings in place for the cards the selection takes (quiet
 * hours and the pause too when it takes every card), and saves the state when it changed.
 * `target` defaults to the state file of `home` (no server running: start-up recovery, the CLI).
 * Idempotent, so recovery may run it again after a crash.
 * @returns the ids of the cards whose reminders were given settings (empty when the staged home
 *   carries none or nothing changed).
 * @throws the fs error of the save.
 */
export function applyStagedChoices(
  staged: StagedPaths,
  sel: Selection,
  home: string,
  target: ReminderTarget = new NotificationState(home),
): string[] {
  const choices = readStagedChoices(staged);
  if (!choices) return [];
  const ids = selectedCards(staged, sel);
  // only reminders the cards define: an archive edited by hand could name any number of others,
  // which would be kept and written with every later change of the state
  const defined = definedReminders(staged, ids);
  const items = Object.fromEntries(Object.entries(choices.items).filter(([id]) => defined.has(id)));
  if (!adoptChoices(target.data, { ...choices, items }, ids, sel.cards === 'all')) return [];
  target.save();
  return ids;
}
