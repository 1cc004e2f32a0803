/**
 * A save replaces a manifest file by renaming a new one over it, and a new file gets the default
 * permissions: a card its owner had made private (`chmod 600`) or shared with one group became
 * readable by every account on the machine at the next save from the app. Every write path keeps
 * the permissions of the file it replaces; a file the app creates gets the usual ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const manifestText = (id: string, label: string) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label, view: { enabled: true, component: 'list-card' } } }, null, 2)}\n`;

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('permissions of a manifest file the app rewrites', () => {
  it('stay as its owner set them, for an edit, a reorder and a linked file', async () => {
    let elsewhere = '';
    s = await startServer({
      before: (home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'weight.json'), manifestText('weight', 'Weight'));
        fs.chmodSync(path.join(dataDir, 'weight.json'), 0o600);
        fs.writeFileSync(path.join(dataDir, 'mood.json'), manifestText('mood', 'Mood'));
        fs.chmodSync(path.join(dataDir, 'mood.json'), 0o640);
        // a manifest kept in another folder and linked in: the linked file keeps its mode
        elsewhere = path.join(home, 'private');
        fs.mkdirSync(elsewhere);
        fs.writeFileSync(path.join(elsewhere, 'sleep.json'), manifestText('sleep', 'Sleep'));
        fs.chmodSync(path.join(elsewhere, 'sleep.json'), 0o600);
        fs.symlinkSync(path.join(elsewhere, 'sleep.json'), path.join(dataDir, 'sleep.json'));
      },
    });
    const dataDir = s.dataDir;
    const file = (id: string) => path.join(dataDir, `${id}.json`);

    const edit = await s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { label: 'Body weight' } },
    });
    expect(edit.status).toBe(200);
    expect(fs.readFileSync(file('weight'), 'utf8')).toContain('Body weight');
    expect(modeOf(file('weight'))).toBe(0o600);

    const reorder = await s.api('/api/manifests/reorder', {
      method: 'POST',
      json: { order: ['sleep', 'mood', 'weight'] },
    });
    expect(reorder.status).toBe(200);
    expect(reorder.body.updated).toContain('mood');
    expect(modeOf(file('weight'))).toBe(0o600);
    expect(modeOf(file('mood'))).toBe(0o640);

    const linked = await s.api('/api/manifests/sleep', {
      method: 'PATCH',
      json: { meta: { label: 'Night sleep' } },
    });
    expect(linked.status).toBe(200);
    expect(fs.lstatSync(file('sleep')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(elsewhere, 'sleep.json'), 'utf8')).toContain('Night sleep');
    expect(modeOf(path.join(elsewhere, 'sleep.json'))).toBe(0o600);
  });

  it('of a card the app creates are the usual ones (owner writes, others read)', async () => {
    s = await startServer();
    const made = await s.api('/api/settings/cards/from-template', {
      method: 'POST',
      json: { templateId: 'weight' },
    });
    expect(made.status).toBeLessThan(300);
    const created = fs.readdirSync(s.dataDir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    expect(created.length).toBeGreaterThan(0);
    for (const name of created) expect(modeOf(path.join(s.dataDir, name)) & 0o600).toBe(0o600);
  });
});
