/**
 * A write to a symlinked manifest makes its temp and aside copies beside the linked file, outside
 * the data folder. A crash part way left them there for good (start-up repair only looked in the
 * data folder), and a crash after the linked file was set aside left the link dangling: the card
 * was gone. Start-up settles them: the temp file goes, the aside copy comes back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const manifestText = (id: string, label: string) =>
  `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id, label, view: { enabled: true, component: 'list-card' } } }, null, 2)}\n`;

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('leftovers of a crashed write beside a linked manifest', () => {
  it('are settled at start-up: the temp file removed, the aside copy put back', async () => {
    let elsewhere = '';
    s = await startServer({
      before: (home, dataDir) => {
        elsewhere = path.join(home, 'dotfiles');
        fs.mkdirSync(elsewhere, { recursive: true });
        fs.mkdirSync(dataDir, { recursive: true });
        // weight: linked file in place, a temp file of a write cut short beside it
        fs.writeFileSync(path.join(elsewhere, 'weight.json'), manifestText('weight', 'Weight'));
        fs.symlinkSync(path.join(elsewhere, 'weight.json'), path.join(dataDir, 'weight.json'));
        fs.writeFileSync(
          path.join(elsewhere, '.weight.json.0123456789ab.tmp'),
          manifestText('weight', 'Half'),
        );
        // mood: the linked file set aside by a write cut short before the new one was placed
        fs.writeFileSync(path.join(elsewhere, '.mood.json.abcdef012345.old'), manifestText('mood', 'Mood'));
        fs.symlinkSync(path.join(elsewhere, 'mood.json'), path.join(dataDir, 'mood.json'));
        // a dot-file of someone else's in the same folder is left alone
        fs.writeFileSync(path.join(elsewhere, '.bashrc'), '# mine\n');
      },
    });
    expect(fs.readdirSync(elsewhere).sort()).toEqual(['.bashrc', 'mood.json', 'weight.json']);
    expect((await s.api('/api/manifests/weight')).body.meta.label).toBe('Weight');
    expect((await s.api('/api/manifests/mood')).body.meta.label).toBe('Mood');
  });
});
