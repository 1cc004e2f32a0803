/**
 * A card whose file was put in the data folder by hand (present at the first start, so no change
 * of its file is recorded) answers a row write with the data tag "v<n>", as every card does. A
 * client that sends that tag to a later patch of the card's settings, with nothing changed in
 * between, goes ahead: the card's tag is the write's own while its file is as it was. A hand edit
 * of the file made after the write is still refused with the write's tag (412), and the edit
 * stays. Real server, real SQLite, the card file on disk before the first start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'card-etag-hand-put-token';
let s: TestServer | undefined;

afterEach(async () => {
  await s?.close();
  s = undefined;
});

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) =>
  (s as TestServer).api(p, { token: T, ...init });

function handPut(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const card = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'steps', label: 'Steps', writeable: { fromWebapp: true, pastAllowed: true } },
    data: [{ date: '2026-04-01', steps: 4000 }],
  };
  fs.writeFileSync(path.join(dataDir, 'steps.json'), JSON.stringify(card, null, 2));
}

it('a patch with the tag a row write answered on a hand-put card goes ahead, nothing having changed', async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T }, before: (_home, dataDir) => handPut(dataDir) });
  const added = await api('/api/manifests/steps/rows', {
    json: { value: { date: '2026-04-02', steps: 5200 } },
  });
  expect(added.status, added.text).toBe(201);
  const tag = added.headers.get('etag') as string;
  expect(tag).toMatch(/^"v\d+"$/);
  expect(added.body.etag).toBe(tag);

  // the card read now carries the same tag
  expect((await api('/api/manifests/steps')).headers.get('etag')).toBe(tag);
  const patched = await api('/api/manifests/steps', {
    method: 'PATCH',
    json: { description: 'Counted by the phone' },
    headers: { 'if-match': tag },
  });
  expect(patched.status, patched.text).toBe(200);
});

it("a hand edit of the file after the write moves the tag: a patch with the write's tag is refused", async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T }, before: (_home, dataDir) => handPut(dataDir) });
  const added = await api('/api/manifests/steps/rows', {
    json: { value: { date: '2026-04-02', steps: 5200 } },
  });
  expect(added.status, added.text).toBe(201);
  const tag = added.headers.get('etag') as string;

  const file = path.join(s.dataDir, 'steps.json');
  const onDisk = JSON.parse(fs.readFileSync(file, 'utf8'));
  onDisk.description = 'Written in an editor';
  fs.writeFileSync(file, JSON.stringify(onDisk, null, 2));
  // the loader reads the edit before the patch is judged (as the watcher would)
  const stale = await api('/api/manifests/steps', {
    method: 'PATCH',
    json: { description: 'From the phone' },
    headers: { 'if-match': tag },
  });
  expect(stale.status, stale.text).toBe(412);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).description).toBe('Written in an editor');
});
