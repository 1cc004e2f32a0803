/**
 * Hand edits racing API writes on the same card: an editor saves the manifest (write a temp file,
 * rename it over) while the API patches the card as fast as it can. A hand edit is never lost:
 * once saved, the field it set is never seen going back, and every API patch answered 200 is
 * in the file or was followed by a newer one. The server runs as its own process, so the two
 * writers truly race.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer, writeableCard } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hand edits racing API writes', () => {
  const box = sandboxHome('klebb-hand-race-');
  afterAll(async () => {
    await killAllChildren();
    box.remove();
  });

  it('never lose a saved hand edit', { timeout: 90_000 }, async () => {
    const child = await spawnServer({ home: box.home });
    expect((await child.api('/api/manifests', { json: writeableCard('race') })).status).toBe(201);
    const file = path.join(box.home, 'data/race.json');
    let stop = false;
    let apiOk = 0;
    let apiRefused = 0;
    const apiLoop = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await child.api('/api/manifests/race', {
          method: 'PATCH',
          json: { meta: { label: `api ${i}` } },
        });
        if (r.status === 200) apiOk++;
        else if (r.status === 409) apiRefused++;
        else throw new Error(`PATCH answered ${r.status}: ${r.text}`);
      }
    })();
    let saved = 0;
    let lost = 0;
    // at least 3 s, and until 40 API patches went through (at most 30 s on a busy machine)
    const start = Date.now();
    while (Date.now() - start < 3_000 || (apiOk < 40 && Date.now() - start < 30_000)) {
      let current: { meta: Record<string, unknown> };
      try {
        current = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        await sleep(1);
        continue;
      }
      const seen = typeof current.meta.handSeq === 'number' ? current.meta.handSeq : 0;
      if (seen < saved) {
        lost++;
        saved = seen;
      }
      // an editor's save: the whole file, written beside and renamed over
      const next = { ...current, meta: { ...current.meta, handSeq: saved + 1 } };
      const tmp = `${file}.editor-tmp`;
      fs.writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
      fs.renameSync(tmp, file);
      saved++;
      await sleep(Math.random() * 15);
    }
    stop = true;
    await apiLoop;
    await sleep(300);
    const last = JSON.parse(fs.readFileSync(file, 'utf8')).meta.handSeq;
    if (last < saved) lost++;
    console.log(
      `[hand-edit-race] hand saves ${saved}, lost ${lost}; API patches 200: ${apiOk}, 409: ${apiRefused}`,
    );
    expect(saved).toBeGreaterThan(30);
    expect(apiOk).toBeGreaterThan(30);
    expect(lost).toBe(0);
    // the server's copy caught up with the last hand edit
    await sleep(500);
    expect((await child.api('/api/manifests/race')).body.meta.handSeq).toBe(saved);
  });
});
