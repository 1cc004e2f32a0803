/**
 * A card file dropped in with its rows is imported in steps: a copy of it is kept, its rows are
 * stored, then it is rewritten without them. A process that dies between the rows and the
 * rewrite (a power cut, kill -9) leaves the file as dropped, its copy and its rows stored. The
 * next start finishes the last step only: the rows are there once, one copy is kept, the file
 * holds no data, and History has the one import; before, it was imported again (a second copy of
 * the same bytes, the rows stored a second time as a new version).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertDistBuilt } from '../helpers/child-server.js';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';

const box = sandboxHome('klebb-power-cut-');
let srv: TestServer | undefined;
afterAll(async () => {
  await srv?.close({ keepHome: true });
  box.remove();
});

// a Klebb home with its file watcher, in a child that kills itself the moment the dropped-in
// file's rows are stored (the card's data-changed event, sent before the file is rewritten)
const childScript = `
const { loadConfig } = await import(${JSON.stringify(path.join(repoRoot, 'dist/src/config.js'))});
const { openInstance } = await import(${JSON.stringify(path.join(repoRoot, 'dist/src/instance.js'))});
const inst = await openInstance(loadConfig({ HEALTH_HOME: process.env.HEALTH_HOME, PORT: '0' }), { watch: true });
inst.events.on('card', (e) => {
  if (e.type === 'data-changed' && e.id === 'drop') process.kill(process.pid, 'SIGKILL');
});
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;

const dropped = `${JSON.stringify({
  $schema: 'klebb.datafile.v1',
  meta: { id: 'drop', label: 'Drop', writeable: { fromWebapp: true } },
  data: [
    { date: '2026-04-01', kg: 81 },
    { date: '2026-04-02', kg: 80.5 },
  ],
})}\n`;

const copies = () => fs.readdirSync(box.dataDir).filter((n) => /^drop\.json\..+\.json$/.test(n));

describe('a process that dies between the rows of a dropped-in file and its rewrite', () => {
  it('leaves the file as dropped; the next start finishes it without importing it again', {
    timeout: 60_000,
  }, async () => {
    assertDistBuilt();
    const script = path.join(box.home, 'child.mjs');
    fs.writeFileSync(script, childScript);
    const child = spawn(process.execPath, [script], {
      env: { PATH: process.env.PATH, HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (d) => {
      out += d;
    });
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('ready')) resolve();
      }),
    );
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_c, sig) => resolve(sig)),
    );
    const part = path.join(box.dataDir, 'drop.json.part');
    fs.writeFileSync(part, dropped);
    fs.renameSync(part, path.join(box.dataDir, 'drop.json'));
    expect(await ended, out).toBe('SIGKILL');

    // what the power cut left: the file as dropped, its copy
    expect(fs.readFileSync(path.join(box.dataDir, 'drop.json'), 'utf8')).toBe(dropped);
    expect(copies()).toHaveLength(1);

    srv = await startServer({ home: box.home });
    const card = await srv.api('/api/manifests/drop');
    expect(card.status, card.text).toBe(200);
    expect(card.body.data).toEqual([
      { date: '2026-04-01', kg: 81 },
      { date: '2026-04-02', kg: 80.5 },
    ]);
    expect(copies()).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(path.join(box.dataDir, 'drop.json'), 'utf8'))).not.toHaveProperty(
      'data',
    );
    const sets = (await srv.api('/api/changes?card=drop')).body.changeSets as { summary: string }[];
    expect(sets).toHaveLength(1);
  });
});
