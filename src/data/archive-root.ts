/**
 * An export archive as a person's own zip tool may have packed it again. A browser or the
 * operating system unpacks a download (Safari does so by itself, Windows' "Extract all" makes a
 * folder), and packing that folder again (Finder's Compress, Windows' Send to › Compressed
 * folder) puts every file under the folder's name and adds the system's own files: `__MACOSX/`
 * with a `._` resource file beside every file, `.DS_Store`, `Thumbs.db`, `desktop.ini`. The
 * archive's own files are unchanged, so the checksums of its inventory still vouch for them:
 * here the system files are left out and the one folder holding `klebb-export.json` becomes the
 * archive's root. Anything else stays as it is, to be refused by the inventory's checks.
 */
import { EXPORT_MANIFEST_NAME } from './export-format.js';
import type { SafeEntry, SafeZip } from './zip-reader.js';

/** File names a file system or zip tool of macOS or Windows adds by itself. */
const SYSTEM_FILE = /^(?:\.DS_Store|\._.*|Thumbs\.db|ehthumbs\.db|desktop\.ini|Icon\r)$/i;

/** True for an entry the packing tool added, never one Klebb writes. */
export function isSystemEntry(name: string): boolean {
  if (name === '__MACOSX' || name.startsWith('__MACOSX/')) return true;
  return SYSTEM_FILE.test(name.slice(name.lastIndexOf('/') + 1));
}

/**
 * The folder (`name/`, or `''` for the archive's root) that holds the manifest: the root when it
 * lies there, else the one folder whose `klebb-export.json` is the only one and that holds every
 * other entry. `''` when there is no such folder (the manifest check then says what is missing).
 */
export function exportRoot(names: string[]): string {
  if (names.includes(EXPORT_MANIFEST_NAME)) return '';
  const roots = names
    .filter((n) => n.endsWith(`/${EXPORT_MANIFEST_NAME}`))
    .map((n) => n.slice(0, -EXPORT_MANIFEST_NAME.length));
  if (roots.length !== 1) return '';
  const [root] = roots;
  return names.every((n) => n.startsWith(root)) ? root : '';
}

/**
 * `zip` with its system entries left out and its entries named from the folder holding the
 * manifest (see exportRoot); the same archive object, so close() and open() still apply.
 */
export function exportArchiveView(zip: SafeZip): SafeZip {
  const own = [...zip.entries.values()].filter((e) => !isSystemEntry(e.name));
  const root = exportRoot(own.map((e) => e.name));
  const entries = new Map<string, SafeEntry>();
  for (const e of own) {
    const name = e.name.slice(root.length);
    entries.set(name, { ...e, name });
  }
  return { ...zip, entries };
}
