/**
 * A card file edited by hand while the server was stopped changes the card's ETag as a hand edit
 * made while it runs does: a device that read the card before the stop and patches it after
 * the start with the tag it read is refused (412), and the hand edit stays in the file. A card
 * whose file was not touched keeps its tag across the restart, so a patch with it goes ahead.
 * Real server, real SQLite, the card file on disk, a real stop and start on the same home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'card-etag-edit-while-stopped-token';
let s: TestServer | undefined;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  (s as TestServer).api(p, { token: T, ...init });
const tagOf = async (id: string) => (await api(`/api/manifests/${id}`)).headers.get('etag') as string;

afterAll(async () => {
  await s?.close();
});

describe('the card ETag across a restart', () => {
  it('moves with a hand edit made while the server was stopped, and stays put without one', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: T } });
    for (const id of ['edited', 'untouched']) {
      const r = await api('/api/manifests', {
        json: {
          $schema: 'klebb.datafile.v1',
          meta: { id, label: `Card ${id}` },
          data: [{ date: '2026-04-01', v: 1 }],
        },
      });
      expect(r.status, r.text).toBe(201);
    }
    const edited = await tagOf('edited');
    const untouched = await tagOf('untouched');
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
  });
});
