/**
 * A staged home: what an import or a restore puts into place, laid out the same way for both
 * (an archive unpacked and checked, or a snapshot taken by src/data/backups.ts):
 * `db.sqlite` (the instance schema; card data, samples, conversations), `cards/<id>.json`
 * (manifests, meta only), `reports/` and `meta/` (files of `data/_meta`), and `reminders.json` (reminder settings).
 */
import path from 'node:path';

/** Paths inside a staged home. */
export interface StagedPaths {
  dir: string;
  db: string;
  cards: string;
  reports: string;
  meta: string;
  /** Reminder settings (src/data/reminder-settings.ts); absent when the source carried none. */
  reminders: string;
}

/** The paths of the staged home at `dir`. */
export function stagedPaths(dir: string): StagedPaths {
  return {
    dir,
    db: path.join(dir, 'db.sqlite'),
    cards: path.join(dir, 'cards'),
    reports: path.join(dir, 'reports'),
    meta: path.join(dir, 'meta'),
    reminders: path.join(dir, 'reminders.json'),
  };
}
