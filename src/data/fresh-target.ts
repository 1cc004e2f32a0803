/**
 * An import or a restore from the command line (`npm run import -- --apply --target DIR`,
 * `npm run backups -- --restore NAME --target DIR`) writes into a fresh home: a folder that does
 * not exist yet, an empty one, or a home holding nothing but the welcome card. When it fails half
 * way (a disk that fills up, a folder that refuses a write), the target must be left as it was:
 * a half-made home (an empty database file, some of the cards) is no longer fresh, so running
 * the same command again once the cause is gone was refused or failed on the empty database.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Files of a fresh home whose bytes are kept to be put back (the welcome card, settings). */
const KEEP_BYTES_MAX = 1024 * 1024;

/** What a fresh target held before the command wrote into it; `putBack()` restores that. */
export interface FreshTarget {
  /** Removes everything the command made in the target and puts back the files it changed. */
  putBack(): void;
}

/** Every path under `dir` (not itself): folders and files, parents before children. */
function pathsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) out.push(...pathsUnder(p));
  }
  return out;
}

/**
 * Records the target home `home` (a folder, checked to be usable) before an import or restore
 * writes into it; `existed`: whether it was there before the command looked at it (the check
 * of the folder may have made it). Call `putBack()` after a failure, once the database is
 * closed: what did not exist before is removed (the whole folder when the command made it), and
 * each small file that existed is written back as it was.
 * A database that existed before is not rewritten: its changes are one transaction, rolled back
 * by the failure itself.
 */
export function recordFreshTarget(home: string, dbFile: string, existed: boolean): FreshTarget {
  if (!existed) {
    return { putBack: () => fs.rmSync(home, { recursive: true, force: true }) };
  }
  const before = new Set(pathsUnder(home));
  const bytes = new Map<string, Buffer>();
  for (const p of before) {
    if (p === dbFile || p.startsWith(`${dbFile}-`)) continue;
    const st = fs.lstatSync(p);
    if (st.isFile() && st.size <= KEEP_BYTES_MAX) bytes.set(p, fs.readFileSync(p));
  }
  return {
    putBack() {
      const now = fs.existsSync(home) ? pathsUnder(home) : [];
      for (const p of now.reverse()) {
        if (!before.has(p)) fs.rmSync(p, { recursive: true, force: true });
      }
      for (const [p, b] of bytes) {
        const cur = fs.existsSync(p) ? fs.readFileSync(p) : undefined;
        if (!cur?.equals(b)) fs.writeFileSync(p, b);
      }
    },
  };
}

/**
 * `target.putBack()` where its own failure must not hide the one being reported (a disk that
 * still refuses writes): what could not be put back is left as it is.
 */
export function putBackQuietly(target: FreshTarget): void {
  try {
    target.putBack();
  } catch {
    // the original failure is the one to report
  }
}
