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

/** Permission bits and owner of the file at `file`, or null when there is no such file. */
function attributesOf(file: string): { mode: number; uid: number; gid: number } | null {
  try {
    const st = fs.statSync(file);
    return st.isFile() ? { mode: st.mode & 0o777, uid: st.uid, gid: st.gid } : null;
  } catch {
    return null;
  }
}

/**
 * Gives the new file `fd` the permissions and owner of the file it replaces. A rename puts a new
 * inode in place, so without this a manifest its owner made private (`chmod 600`) or shared with
 * a group would quietly become readable by everyone (0o644 under the usual umask) at the next
 * save. The owner can only be kept where the process may give it (root, or a group it is in);
 * otherwise the file stays the process's own.
 */
function keepAttributes(fd: number, before: { mode: number; uid: number; gid: number }): void {
  fs.fchmodSync(fd, before.mode);
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || (before.uid === uid && before.gid === gid)) return;
  try {
    fs.fchownSync(fd, before.uid, before.gid);
  } catch {
    try {
      fs.fchownSync(fd, uid, before.gid);
    } catch {
      // not allowed to give this owner or group: the file stays the process's own
    }
  }
}

/**
 * Writes `content` to a synced temp file beside `target` and returns the temp path; the caller
 * renames it (see commitTemp) or removes it. Used where several files must change together.
 * @param mode file mode, e.g. 0o600 for secrets. Without it the file keeps the permissions and
 *   owner of the file it replaces (see keepAttributes); a new file gets 0o644 (less the umask).
 */
export function writeTemp(target: string, content: string | Buffer, mode?: number): string {
  const real = writeTargetOf(target);
  const tmp = tempPathFor(real);
  const before = mode === undefined ? attributesOf(real) : null;
  const fd = fs.openSync(tmp, 'wx', mode ?? before?.mode ?? 0o644);
  try {
    if (before) keepAttributes(fd, before);
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
 * at `target` stays, and the file it points to is replaced. `mode` as for writeTemp: without it
 * the replaced file's permissions and owner are kept.
 * @throws the underlying fs error; on failure the old file is untouched and no temp file is left.
 */
export function writeFileAtomic(target: string, content: string | Buffer, mode?: number): void {
  const tmp = writeTemp(target, content, mode);
  try {
    commitTemp(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(path.dirname(writeTargetOf(target)));
}
