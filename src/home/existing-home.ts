/**
 * Whether a folder holds a Klebb home, for the command-line tools that read one (export,
 * snapshots): opening a home creates what is missing, so without this check a misspelt --home
 * or an unset HEALTH_HOME would make a new empty home and back that up as if it were the person's.
 */
import fs from 'node:fs';
import { homeLayout } from './home-layout.js';

/**
 * Why `home` (with its data folder, HEALTH_DATA_DIR's override) is no Klebb home, or null when
 * it is one: it holds the database (`db/klebb.sqlite`) or the data folder exists. A home that is
 * a file (an archive named by mistake) is said to be one.
 */
export function missingHomeReason(home: string, dataDir?: string): string | null {
  const layout = homeLayout(home, dataDir);
  if (fs.existsSync(layout.dbFile) || fs.existsSync(layout.dataDir)) return null;
  const what = !fs.existsSync(home)
    ? 'the folder does not exist'
    : fs.statSync(home).isDirectory()
      ? 'the folder holds no db/klebb.sqlite and no data folder'
      : 'it is a file, not a folder';
  return (
    `no Klebb home at ${home}: ${what}. Name the folder the server runs with ` +
    '(--home DIR, or HEALTH_HOME; ~/klebb when it is unset); nothing was written'
  );
}
