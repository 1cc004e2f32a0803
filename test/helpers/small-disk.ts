/**
 * A small disk for full-disk tests: a tmpfs of a few MB mounted on a fresh folder (the tests run
 * as root in CI), filled up to the last byte on demand. Where mounting is not permitted, `mounted`
 * is false and the folder is an ordinary one: the caller then injects the faults itself
 * (see fillDisk's `inject` fallback in the tests).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A folder on a small disk; `fill()` leaves no free byte, `free()` gives the space back. */
export interface SmallDisk {
  dir: string;
  mounted: boolean;
  fill(): void;
  free(): void;
  remove(): void;
}

/** Mounts a tmpfs of `sizeMb` MB on a fresh temp folder (an ordinary folder when not permitted). */
export function smallDisk(sizeMb: number, prefix = 'klebb-disk-'): SmallDisk {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], {
      stdio: 'ignore',
    });
    mounted = true;
  } catch {
    mounted = false;
  }
  const fillers: string[] = [];
  return {
    dir,
    mounted,
    fill() {
      const file = path.join(dir, `.filler-${fillers.length}`);
      fillers.push(file);
      const fd = fs.openSync(file, 'w');
      try {
        for (const size of [1 << 20, 64 << 10, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x61);
          for (;;) {
            try {
              fs.writeSync(fd, chunk);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw err;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      for (const f of fillers.splice(0)) fs.rmSync(f, { force: true });
    },
    remove() {
      if (mounted) {
        try {
          execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
        } catch {
          // already gone
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let probed: boolean | undefined;

/** Whether a tmpfs can be mounted here (the tests run as root in CI); probed once per process. */
export function canMountTmpfs(): boolean {
  if (probed === undefined) {
    const probe = smallDisk(1, 'klebb-probe-');
    probed = probe.mounted;
    probe.remove();
  }
  return probed;
}

/** Mounts on existing folders that the test has not taken down yet; `unmountAll` ends them. */
const mountedDirs = new Set<string>();

/**
 * Puts a tmpfs of `size` (mount's size option: bytes, or `1m`) over the existing folder `dir`,
 * read-only when `readOnly` (a failing disk the kernel protects, a snapshot mount). Returns its
 * unmount; `unmountAll()` in an afterEach takes down whatever a failed test left.
 * @throws when mounting is not permitted (guard the test with canMountTmpfs()).
 */
export function mountTmpfs(
  dir: string,
  opts: { size?: string | number; readOnly?: boolean } = {},
): () => void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${opts.size ?? '1m'},mode=0700`, 'tmpfs', dir]);
  mountedDirs.add(dir);
  if (opts.readOnly) execFileSync('mount', ['-o', 'remount,ro', dir]);
  return () => unmount(dir);
}

function unmount(dir: string): void {
  if (!mountedDirs.delete(dir)) return;
  execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}

/** Takes down every mount mountTmpfs made and the test did not take down itself. */
export function unmountAll(): void {
  for (const dir of [...mountedDirs]) unmount(dir);
}
