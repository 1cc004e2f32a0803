/**
 * Writes a crash cut short are settled at start-up, before the cards load: a card whose rows
 * committed but whose file was still a temp file is completed; a temp file whose rows never
 * committed is removed; a manifest set aside by a write that did not finish goes back in place;
 * the set-aside copy of a committed delete goes. Never a card without its rows, nor rows
 * without a card.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeableCard } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';

const box = sandboxHome('klebb-repair-');
let s: TestServer | undefined;
afterAll(async () => {
  await s?.close();
  box.remove();
});

const leftover = (name: string, kind: 'tmp' | 'old') =>
  path.join(box.dataDir, `.${name}.0123456789ab.${kind}`);

describe('start-up repair of interrupted writes', () => {
  it('completes committed creations, undoes the rest, leaves no leftovers', async () => {
    s = await startServer({ home: box.home });
    const data = [{ seq: 1 }, { seq: 2 }];
    for (const id of ['created', 'set-aside', 'deleted'])
      expect((await s.api('/api/manifests', { json: { ...writeableCard(id), data } })).status).toBe(201);
    expect((await s.api('/api/manifests/deleted', { method: 'DELETE' })).status).toBe(200);
    await s.close({ keepHome: true });
    s = undefined;

    // crash after the rows of "created" committed, before its file was placed
    fs.renameSync(path.join(box.dataDir, 'created.json'), leftover('created.json', 'tmp'));
    // crash before the rows of "never" committed
    const { data: _d, ...never } = writeableCard('never');
    fs.writeFileSync(leftover('never.json', 'tmp'), JSON.stringify(never));
    // crash while a write had "set-aside" renamed aside for its check
    fs.renameSync(path.join(box.dataDir, 'set-aside.json'), leftover('set-aside.json', 'old'));
    // crash after the delete of "deleted" committed, before its aside copy was removed
    const { data: _e, ...deleted } = writeableCard('deleted');
    fs.writeFileSync(leftover('deleted.json', 'old'), JSON.stringify(deleted));

    s = await startServer({ home: box.home });
    const list = (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id);
    expect(list).toContain('created');
    expect(list).toContain('set-aside');
    expect(list).not.toContain('never');
    expect(list).not.toContain('deleted');
    expect((await s.api('/api/manifests/created/data')).body.data).toEqual(data);
    expect((await s.api('/api/manifests/set-aside/data')).body.data).toEqual(data);
    expect(fs.readdirSync(box.dataDir).filter((n) => n.startsWith('.'))).toEqual([]);
    // a retried creation of the completed card is a conflict, of the undone one a success
    expect((await s.api('/api/manifests', { json: writeableCard('never') })).status).toBe(201);
  });
});
