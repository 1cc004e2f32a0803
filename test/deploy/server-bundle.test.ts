/**
 * The production bundle (`dist/server/main.js`, what `npm start`, the container image and the
 * systemd unit run) against the same server compiled file by file (`dist/src/main.js`): the parts
 * that find files next to their own module still find them once bundled. An Apple Health import
 * runs in its worker (a bundle of its own beside main.js) and fills a card; a Health Auto Export
 * push is stored with the same block memo keys by both builds (the keys hash the extraction
 * code's files, which the bundle must read from dist/src, not from beside its chunks), so
 * upgrading to the bundle does not make every re-sent block look new.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { distMain, distMainUnbundled, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

afterAll(() => killAllChildren());

const HAE_BODY = {
  data: {
    metrics: [
      {
        name: 'step_count',
        units: 'count',
        data: [
          { date: '2026-10-20 00:00:00 +0200', qty: 8123, source: 'Watch' },
          { date: '2026-10-21 00:00:00 +0200', qty: 9456, source: 'Watch' },
        ],
      },
    ],
  },
};

const APPLE_EXPORT = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<HealthData locale="en_US">',
  ' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2026-10-23 07:00:00 +0200" endDate="2026-10-23 07:10:00 +0200" value="812"/>',
  '</HealthData>',
].join('\n');

/**
 * Starts `main` on a new home with a step card, pushes HAE_BODY, imports APPLE_EXPORT; returns
 * the memo keys stored, the import's counts and the card's rows.
 */
async function run(main: string): Promise<{ memo: string[]; imported: unknown; steps: unknown }> {
  const box = sandboxHome();
  try {
    const child = await spawnServer({ home: box.home, main });
    const card = await child.api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'steps',
          label: 'Steps',
          ingest: { source: 'hae', metric: 'step_count' },
          writeable: { fromWebapp: false },
        },
        data: [],
      },
    });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    const tok = await child.api('/api/health-auto-export/token', { method: 'POST' });
    expect(tok.status).toBe(201);
    const push = await child.api('/api/health-auto-export', {
      json: HAE_BODY,
      token: tok.body.token as string,
    });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    expect(push.body.samples.received).toBe(2);

    const imported = await child.api('/api/apple-health/import', {
      method: 'POST',
      body: APPLE_EXPORT,
      headers: { 'content-type': 'application/xml' },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const steps = (await child.api('/api/manifests/steps')).body.data;
    const stop = await child.stop();
    expect(stop.code).toBe(0);
    const db = new Database(path.join(box.home, 'db', 'klebb.sqlite'), { readonly: true });
    try {
      const memo = db
        .prepare('SELECT hex(hash) AS h FROM hae_block_memo ORDER BY h')
        .all()
        .map((r) => (r as { h: string }).h);
      return { memo, imported: imported.body.ingested, steps };
    } finally {
      db.close();
    }
  } finally {
    box.remove();
  }
}

describe('the production server bundle', () => {
  it('is what npm start runs, and it is built', () => {
    expect(fs.existsSync(distMain), 'dist/server/main.js is missing: run npm run build').toBe(true);
    expect(fs.existsSync(path.join(path.dirname(distMain), 'import-worker.js'))).toBe(true);
  });

  it('imports, pushes and stores as the file-by-file build does', async () => {
    const bundled = await run(distMain);
    const unbundled = await run(distMainUnbundled);
    expect(bundled.memo.length).toBeGreaterThan(0);
    expect(bundled.memo).toEqual(unbundled.memo);
    expect(bundled.imported).toEqual(unbundled.imported);
    expect(bundled.steps).toEqual(unbundled.steps);
    expect((bundled.steps as { date: string }[]).map((r) => r.date)).toEqual([
      '2026-10-20',
      '2026-10-21',
      '2026-10-23',
    ]);
  });

  it("leaves glob out (its stand-in loads it on a call) and still sends the web app's files", async () => {
    const dir = path.dirname(distMain);
    const chunks = fs.readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'import-worker.js');
    // an option name of glob's, kept by the minifier: present only if glob's code is bundled
    const withGlob = chunks.filter((f) =>
      fs.readFileSync(path.join(dir, f), 'utf8').includes('windowsPathsNoEscape'),
    );
    expect(withGlob).toEqual([]);

    const box = sandboxHome();
    try {
      const child = await spawnServer({ home: box.home, main: distMain });
      const sw = await fetch(`${child.url}/sw.js`);
      expect(sw.status).toBe(200);
      expect(sw.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(sw.headers.get('service-worker-allowed')).toBe('/');
      expect((await child.stop()).code).toBe(0);
    } finally {
      box.remove();
    }
  });
});
