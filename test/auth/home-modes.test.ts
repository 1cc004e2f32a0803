/**
 * Files Klebb creates in HEALTH_HOME are the owner's alone: the
 * real server (`node dist/src/main.js`) on a fresh home makes folders 0700 and files 0600 (the
 * home, data/, db/, the SQLite file and its -wal/-shm, the cards it writes), whatever the umask
 * of the shell that started it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertDistBuilt, killAllChildren, spawnServer } from '../helpers/child-server.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-modes-'));
afterAll(async () => {
  await killAllChildren();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (itself included) with its permission bits. */
function modes(dir: string): [string, number][] {
  const out: [string, number][] = [[dir, fs.statSync(dir).mode & 0o777]];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...modes(p));
    else if (e.isFile()) out.push([p, fs.statSync(p).mode & 0o777]);
  }
  return out;
}

describe('a fresh home', () => {
  it('gets folders 0700 and files 0600', async () => {
    assertDistBuilt();
    const home = path.join(root, 'home'); // does not exist yet: the server makes it
    const old = process.umask(0o022); // the usual shell umask, inherited by the child
    let s: Awaited<ReturnType<typeof spawnServer>> | undefined;
    try {
      s = await spawnServer({ home, token: 'modes-test-token-0123456789' });
    } finally {
      process.umask(old);
    }
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
      data: [],
    };
    expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
    await s.stop();
    const all = modes(home);
    expect(all.some(([p]) => p.endsWith('.db') || p.endsWith('.sqlite'))).toBe(true);
    expect(all.some(([p]) => p.includes('weight'))).toBe(true);
    const loose = all.filter(([p, m]) => (fs.statSync(p).isDirectory() ? m !== 0o700 : m !== 0o600));
    expect(loose.map(([p, m]) => `${path.relative(home, p)} ${m.toString(8)}`)).toEqual([]);
  });
});
