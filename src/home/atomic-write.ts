/**
 * Crash-safe file replacement: write a temp file beside the target, fsync it, rename it over the
 * target, fsync the folder. A reader sees the old bytes or the new bytes, never a torn file, and
 * after the call returns the new bytes survive a power cut.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The path a write to `target` replaces: the file that a symlink at `target` points to, so a
 * file kept elsewhere (a dotfiles folder, a synced folder) and linked in stays linked and gets
 * the new bytes; otherwise `target` itself. A rename over the link would silently turn it into
 * a plain file and leave the linked file stale. A dangling link is replaced like a file.
 */
export function writeTargetOf(target: string): string {
  try {
    return fs.lstatSync(target).isSymbolicLink() ? fs.realpathSync(target) : target;
  } catch {
    return target;
  }
}

/** Temp names start with a dot so the manifest loader (which skips dot-files) never sees them. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** fsyncs a folder so that a rename or unlink in it is durable. Errors on platforms without folder fsync are ignored. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some filesystems refuse fsync on a directory; the rename is still atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes `content` to a synced temp file beside `target` and returns the temp path; the caller
 * renames it (see commitTemp) or removes it. Used where several files must change together.
 * @param mode file mode, e.g. 0o600 for secrets (default 0o644).
 */
export function writeTemp(target: string, content: string | Buffer, mode = 0o644): string {
  const tmp = tempPathFor(writeTargetOf(target));
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return tmp;
}

/** Renames a temp file from writeTemp over its target (the linked file when it is a symlink; atomic on POSIX). */
export function commitTemp(tmp: string, target: string): void {
  fs.renameSync(tmp, writeTargetOf(target));
}

/**
 * Atomically replaces `target` with `content` (temp + fsync + rename + folder fsync); a symlink
 * at `target` stays, and the file it points to is replaced.
 * @throws the underlying fs error; on failure the old file is untouched and no temp file is left.
 */
export function writeFileAtomic(target: string, content: string | Buffer, mode = 0o644): void {
  const tmp = writeTemp(target, content, mode);
  try {
    commitTemp(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(path.dirname(writeTargetOf(target)));
}
