/**
 * Cloud placeholders: when iCloud Drive evicts a file to free space ("Optimize Mac Storage", as
 * macOS did before APFS dataless files, and still does on some folders), the file `weight.json`
 * is replaced by a hidden stub `.weight.json.icloud`; the file's content lives on in iCloud and
 * comes back when it is opened. For the watcher the card file has vanished, but nobody deleted
 * the card: it must stay, with its rows, until the file comes back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isManifestFileName } from './manifest-file.js';

/** The path of the placeholder iCloud leaves for `file` (`dir/.name.icloud`). */
export function cloudPlaceholderPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.icloud`);
}

/** Whether `file` is absent and an iCloud placeholder stands in its place. */
export function evictedToCloud(file: string): boolean {
  if (fs.existsSync(file)) return false;
  return fs.lstatSync(cloudPlaceholderPath(file), { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * The card files of `dataDir` that are in iCloud only: a placeholder `.name.json.icloud` is
 * there and `name.json` is not (absolute paths of the card files, sorted). Read at start-up,
 * when no card was loaded from them yet.
 */
export function filesInCloud(dataDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dataDir);
  } catch {
    return [];
  }
  return names
    .map((n) => /^\.(.+)\.icloud$/.exec(n)?.[1])
    .filter((n): n is string => n !== undefined && isManifestFileName(n))
    .map((n) => path.join(dataDir, n))
    .filter((file) => evictedToCloud(file))
    .sort();
}
