/**
 * Card files present at the first start (or put in the data folder by hand) have no recorded
 * change of their file to number their ETag: before, every such card without rows shared "v0",
 * and a hand edit made to one while Klebb was stopped left its tag as it was, so a device that
 * read the card before the stop patched it after the start over the edit unseen. Now their tag
 * comes from the file's content: it moves with such an edit (the stale patch is 412, the edit
 * stays), it stays across a restart without one, and two cards no longer share it. Real server,
 * real SQLite, files on disk, a real stop and start on the same home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'card-etag-first-start-files-token';
let s: TestServer | undefined;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  (s as TestServer).api(p, { token: T, ...init });
const tagOf = async (id: string) => (await api(`/api/manifests/${id}`)).headers.get('etag') as string;

const card = (id: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: `Card ${id}`, writeable: { fromWebapp: true, pastAllowed: true } },
});

afterAll(async () => {
  await s?.close();
});

describe('the ETag of a card file no change records', () => {
  it('moves with a hand edit made while the server was stopped, and stays put without one', async () => {
    s = await startServer({
      env: { AGENT_API_TOKEN: T },
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        for (const id of ['edited', 'untouched'])
          fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify(card(id), null, 2));
      },
    });
    const edited = await tagOf('edited');
    const untouched = await tagOf('untouched');
    expect(edited).not.toBe(untouched);
    const home = s.home;
    const file = path.join(s.dataDir, 'edited.json');
    await s.close({ keepHome: true });

    // the person changes the description in an editor while Klebb is stopped
    const onDisk = JSON.parse(fs.readFileSync(file, 'utf8'));
    onDisk.description = 'Written in an editor while Klebb was stopped';
    fs.writeFileSync(file, JSON.stringify(onDisk, null, 2));

    s = await startServer({ home, env: { AGENT_API_TOKEN: T } });
    expect(await tagOf('edited')).not.toBe(edited);
    const stale = await api('/api/manifests/edited', {
      method: 'PATCH',
      json: { description: 'From the phone, read before the stop' },
      headers: { 'if-match': edited },
    });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).description).toBe(
      'Written in an editor while Klebb was stopped',
    );

    expect(await tagOf('untouched')).toBe(untouched);
    const fine = await api('/api/manifests/untouched', {
      method: 'PATCH',
      json: { description: 'From the phone' },
      headers: { 'if-match': untouched },
    });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.headers.get('etag')).not.toBe(untouched);
  });

  it('moves with the rows, and a row write takes it', async () => {
    const before = await tagOf('edited');
    const row = await api('/api/manifests/edited/rows', {
      json: { value: { date: '2026-12-01', v: 1 } },
      headers: { 'if-match': before },
    });
    expect(row.status, row.text).toBe(201);
    expect(await tagOf('edited')).not.toBe(before);
    const stale = await api('/api/manifests/edited/rows', {
      json: { value: { date: '2026-12-02', v: 2 } },
      headers: { 'if-match': before },
    });
    expect(stale.status, stale.text).toBe(412);
  });
});
