/**
 * How the data folder is watched. The kernel's change notices (inotify) report only changes made
 * through this machine's kernel: a data folder on a network share (NFS, SMB), a FUSE mount (sshfs,
 * rclone) or a folder a virtual machine or container shares from its host (9p, virtiofs,
 * VirtualBox) is edited elsewhere without a notice ever coming, so hand edits there would never
 * show up. Such a folder is watched by looking at its files' time stamps and sizes every
 * WATCH_POLL_MS instead. HEALTH_WATCH_POLL decides: unset (auto) by the folder's file system, on
 * or off for every folder.
 */
import fs from 'node:fs';

/** How often a polled data folder's files are looked at, ms. */
export const WATCH_POLL_MS = 1000;

/** The HEALTH_WATCH_POLL setting: `auto` decides by the file system. */
export type WatchPollSetting = 'auto' | boolean;

/** Linux file system types (statfs `f_type`) whose files change without a notice reaching this machine. */
const SHARED_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'SMB (cifs)'],
  [0xfe534d42, 'SMB 2'],
  [0x564c, 'NetWare'],
  [0x65735546, 'FUSE (sshfs, rclone, virtiofs ...)'],
  [0x01021997, '9p (a folder shared by a virtual machine host or WSL)'],
  [0x786f4256, 'VirtualBox shared folder'],
  [0x00c36400, 'Ceph'],
  [0x5346414f, 'AFS'],
  [0x6b414653, 'AFS'],
  [0x73757245, 'Coda'],
]);

/** Whether the data folder is polled, and why (for the start-up log). */
export interface WatchMode {
  poll: boolean;
  why: string;
}

/**
 * The watch mode of the data folder `dir` under `setting`. `statfs` is the file system query
 * (a stand-in in tests); a folder it cannot tell about is watched by notices.
 */
export function watchModeFor(
  dir: string,
  setting: WatchPollSetting,
  statfs: (dir: string) => { type: number | bigint } = fs.statfsSync,
  platform: NodeJS.Platform = process.platform,
): WatchMode {
  if (setting === true) return { poll: true, why: 'HEALTH_WATCH_POLL is on' };
  if (setting === false) return { poll: false, why: 'HEALTH_WATCH_POLL is off' };
  // the type numbers are Linux's own; elsewhere they mean nothing
  if (platform !== 'linux') return { poll: false, why: 'file change notices' };
  let type: number;
  try {
    type = Number(statfs(dir).type);
  } catch {
    return { poll: false, why: 'file change notices (the file system could not be told)' };
  }
  const shared = SHARED_FILE_SYSTEMS.get(type >>> 0);
  return shared
    ? { poll: true, why: `the data folder is on ${shared}, whose changes made elsewhere send no notice` }
    : { poll: false, why: 'file change notices' };
}
