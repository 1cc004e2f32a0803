/**
 * Cloud placeholders: when iCloud Drive evicts a file to free space ("Optimize Mac Storage", as
 * macOS did before APFS dataless files, and still does on some folders), the file `weight.json`
 * is replaced by a hidden stub `.weight.json.icloud`; the file's content lives on in iCloud and
 * comes back when it is opened. For the watcher the card file has vanished, but nobody deleted
 * the card: it must stay, with its rows, until the file comes back.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The path of the placeholder iCloud leaves for `file` (`dir/.name.icloud`). */
export function cloudPlaceholderPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.icloud`);
}

/** Whether `file` is absent and an iCloud placeholder stands in its place. */
export function evictedToCloud(file: string): boolean {
  if (fs.existsSync(file)) return false;
  return fs.lstatSync(cloudPlaceholderPath(file), { throwIfNoEntry: false })?.isFile() === true;
}
