/**
 * A card file replaced by something that is not a file while the server runs: a folder of the
 * same name, a symbolic link pointing at itself, or two links pointing at each other (ELOOP).
 * The server keeps running (before, a link loop threw out of the watcher's timer and ended the
 * process), each is listed as READ_FAILED, the card stays as it was with its rows, and a write
 * that would touch the file is refused 409 (FILE_INVALID, FILE_MISSING) rather than 500; rows still go to the
 * database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, killAllChildren, spawnServer, writeableCard } from '../helpers/child-server.js';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-notafile-'));
afterAll(async () => {
  await killAllChildren();
  fs.rmSync(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the card list until every file in `names` has a READ_FAILED entry (or the server died). */
async function failedFiles(srv: ChildServer, names: string[]): Promise<string[]> {
  for (;;) {
    if (srv.hasExited()) throw new Error(`the server ended:\n${srv.output()}`);
    const list = (await srv.api('/api/manifests')).body;
    const failed: string[] = list.errors
      .filter((e: { code: string }) => e.code === 'READ_FAILED')
      .map((e: { file: string }) => e.file);
    if (names.every((n) => failed.includes(n))) return failed;
    await sleep(50);
  }
}

describe('a card file replaced by a folder or a symbolic link loop', () => {
  it('is reported, keeps its card and rows, and never ends the server', { timeout: 60_000 }, async () => {
    const srv = await spawnServer({ home });
    for (const id of ['folder', 'selfloop', 'pairloop']) {
      const made = await srv.api('/api/manifests', { method: 'POST', json: writeableCard(id) });
      expect(made.status, made.text).toBe(201);
      const row = await srv.api(`/api/manifests/${id}/rows`, { method: 'POST', json: { value: { seq: 1 } } });
      expect(row.status, row.text).toBe(201);
    }
    const data = path.join(home, 'data');
    fs.rmSync(path.join(data, 'folder.json'));
    fs.mkdirSync(path.join(data, 'folder.json'));
    fs.rmSync(path.join(data, 'selfloop.json'));
    fs.symlinkSync('selfloop.json', path.join(data, 'selfloop.json'));
    fs.rmSync(path.join(data, 'pairloop.json'));
    fs.symlinkSync('pairloop-2.json', path.join(data, 'pairloop.json'));
    fs.symlinkSync('pairloop.json', path.join(data, 'pairloop-2.json'));

    await failedFiles(srv, ['folder.json', 'selfloop.json', 'pairloop.json']);
    expect((await srv.api('/healthz')).status).toBe(200);
    const ids = (await srv.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id);
    for (const id of ['folder', 'selfloop', 'pairloop']) {
      expect(ids).toContain(id);
      const patch = await srv.api(`/api/manifests/${id}`, {
        method: 'PATCH',
        json: { meta: { label: 'New' } },
      });
      expect(patch.status, `${id}: ${patch.text}`).toBe(409);
      // a folder is a file that does not load; a link loop leads to no file at all
      expect(['FILE_INVALID', 'FILE_MISSING']).toContain(patch.body.code);
      const row = await srv.api(`/api/manifests/${id}/rows`, { method: 'POST', json: { value: { seq: 2 } } });
      expect(row.status, `${id}: ${row.text}`).toBe(201);
      expect((await srv.api(`/api/manifests/${id}`)).body.data).toHaveLength(2);
    }
    expect(srv.hasExited()).toBe(false);
    await srv.stop();
  });
});
