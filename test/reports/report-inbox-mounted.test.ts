/**
 * The reports inbox (HEALTH_HOME/inbox, where uploads arrive) kept on another disk, as a mount
 * point or as a link to a folder there: a start empties it of uploads a restart cut off and keeps
 * the folder itself. Before, the start removed the whole folder: on a mount point that failed
 * with EBUSY and the server did not start (a stack trace), and a link was replaced by a folder on
 * the home's own disk. Real server (the built entry point), real tmpfs mount.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type ChildServer, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { canMountTmpfs, mountTmpfs, unmountAll } from '../helpers/small-disk.js';

let root: string | undefined;
let s: ChildServer | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
  await killAllChildren();
  unmountAll();
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A home whose inbox holds an upload a restart cut off. */
function homeWithLeftover(): { home: string; inbox: string } {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-inbox-'));
  const home = path.join(root, 'home');
  return { home, inbox: path.join(home, 'inbox') };
}

it.runIf(canMountTmpfs())(
  'an inbox that is a mount point: the server starts, the leftover is gone, the mount stays',
  async () => {
    const { home, inbox } = homeWithLeftover();
    fs.mkdirSync(inbox, { recursive: true });
    mountTmpfs(inbox);
    fs.writeFileSync(path.join(inbox, '1700000000000-abc.part'), 'half an upload');
    s = await spawnServer({ home, token: 'inbox-test-token-0123456789' });
    expect(fs.readdirSync(inbox)).toEqual([]);
    expect(execFileSync('findmnt', ['-n', '-o', 'TARGET', inbox], { encoding: 'utf8' }).trim()).toBe(inbox);
  },
);

it('an inbox that links to another folder: the link stays and the leftover there is gone', async () => {
  const { home, inbox } = homeWithLeftover();
  const elsewhere = path.join(root as string, 'big-disk-inbox');
  fs.mkdirSync(elsewhere);
  fs.mkdirSync(home);
  fs.symlinkSync(elsewhere, inbox);
  fs.writeFileSync(path.join(elsewhere, '1700000000000-abc.part'), 'half an upload');
  s = await spawnServer({ home, token: 'inbox-test-token-0123456789' });
  expect(fs.lstatSync(inbox).isSymbolicLink()).toBe(true);
  expect(fs.readdirSync(elsewhere)).toEqual([]);
});
