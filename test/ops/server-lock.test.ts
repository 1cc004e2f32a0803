/**
 * One server per HEALTH_HOME: a second server started on a home another one is serving stops at
 * once with exit code 2 and a sentence naming the home (before, both ran, each watching the card
 * files and sending every reminder); after the first one is killed with SIGKILL (a crash, a power
 * cut), its lock does not block the next start, and the home's data is all there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer, writeableCard } from '../helpers/child-server.js';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-lock-'));
afterAll(async () => {
  await killAllChildren();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('two servers on one HEALTH_HOME', () => {
  it('the second stops with a clear message; a crashed first does not block the next start', {
    timeout: 60_000,
  }, async () => {
    const first = await spawnServer({ home });
    const made = await first.api('/api/manifests', { method: 'POST', json: writeableCard('lock') });
    expect(made.status, made.text).toBe(201);
    const r = await first.api('/api/manifests/lock/rows', { method: 'POST', json: { value: { seq: 41 } } });
    expect(r.status, r.text).toBe(201);

    await expect(spawnServer({ home })).rejects.toThrow(
      /another Klebb server is already running on HEALTH_HOME/,
    );
    // the first one is not disturbed
    expect((await first.api('/healthz')).status).toBe(200);

    await first.kill();
    const next = await spawnServer({ home });
    const rows = await next.api('/api/manifests/lock/rows');
    expect(rows.status, rows.text).toBe(200);
    expect(JSON.stringify(rows.body)).toContain('41');
    await next.stop();
    // a server stopped cleanly lets the next one start too
    const after = await spawnServer({ home });
    expect((await after.api('/healthz')).status).toBe(200);
    await after.stop();
  });
});
