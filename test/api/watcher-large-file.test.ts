/**
 * A large card file dropped into the data folder (tens of thousands of rows in its `data`) is
 * loaded without holding the server: /healthz and the card list answer while it loads, and the
 * card shows up with all its rows at once, never half. No timings are asserted (the figure is in
 * bench/cold-start.ts, `cold.large_file_*`): what is asserted is the order of what a client sees.
 * "Loading" is told by the import's backup file, which appears when the file has been read and
 * before any of its rows are stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupFileName } from '../../src/cards/manifest-file.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ROWS = 60_000;
let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const server = () => s as TestServer;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function bigManifest(rows: number, label = 'Heart rate', value = 60): string {
  const data = Array.from({ length: rows }, (_, i) => ({
    date: new Date(Date.UTC(2000, 0, 1) + i * 3_600_000).toISOString(),
    bpm: value + (i % 40),
    source: 'a watch',
  }));
  return JSON.stringify({
    $schema: 'klebb.datafile.v1',
    meta: { id: 'big', label, writeable: { fromWebapp: true } },
    data,
  });
}

/** Drops a file into the data folder the way a copy tool does: written beside it, renamed in. */
function drop(text: string): void {
  const tmp = path.join(server().dataDir, '.incoming.tmp');
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, path.join(server().dataDir, 'big.json'));
}

const backups = () => fs.readdirSync(server().dataDir).filter((n) => n.startsWith('big.json.')).length;

/** The card's row count in the card list, undefined while it is not listed. */
async function listedRows(): Promise<number | undefined> {
  const r = await server().api('/api/manifests');
  return (r.body.entries as { id: string; rowCount: number }[]).find((e) => e.id === 'big')?.rowCount;
}

interface Watched {
  /** /healthz answered while the file was loading (its backup there, the card not changed yet). */
  answeredWhileLoading: boolean;
  /** Every row count the card list showed. */
  counts: Set<number | undefined>;
}

/**
 * Watches the card list until it shows `done` rows (or gives up after a minute), asking
 * /healthz between two looks at the list. `loading` says whether the load under watch has begun.
 */
async function watchLoad(
  done: number,
  loading: () => boolean,
  during?: () => Promise<void>,
): Promise<Watched> {
  const out: Watched = { answeredWhileLoading: false, counts: new Set() };
  const giveUp = Date.now() + 60_000;
  while (Date.now() < giveUp) {
    const before = await listedRows();
    out.counts.add(before);
    if (before === done) return out;
    const began = loading();
    const health = await server().api('/healthz');
    const after = await listedRows();
    out.counts.add(after);
    if (began && health.status === 200 && after === before) {
      if (!out.answeredWhileLoading) await during?.();
      out.answeredWhileLoading = true;
    }
    await sleep(5);
  }
  return out;
}

describe('a large card file dropped into the data folder', () => {
  it('loads while the server keeps answering, and the card arrives with all its rows at once', async () => {
    s = await startServer();
    drop(bigManifest(ROWS));
    const seen = await watchLoad(ROWS, () => backups() === 1);
    expect(seen.answeredWhileLoading).toBe(true);
    // never a card with part of its rows
    expect([...seen.counts].filter((n) => n !== undefined)).toEqual([ROWS]);
    // imported as a smaller file is: the file is now meta-only, its original kept as a backup
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(server().dataDir, 'big.json'), 'utf8')))).toEqual(
      ['$schema', 'meta'],
    );
    const rows = (await server().api('/api/manifests/big/rows?limit=1&order=asc')).body;
    expect(rows).toMatchObject({ total: ROWS, rows: [{ bpm: 60, source: 'a watch' }] });
    const sets = (await server().api('/api/changes?limit=1')).body.changeSets;
    expect(sets[0].actor).toBe('file');
    expect(sets[0].cards).toContain('big');
    // deleting it cannot be undone (too many rows to keep a copy of), and the answer says why
    expect((await server().api('/api/manifests/big', { method: 'DELETE' })).status).toBe(200);
    const deleted = (await server().api('/api/changes?limit=1')).body.changeSets[0].id;
    const undo = await server().api(`/api/changes/${deleted}/undo`, { method: 'POST' });
    expect(undo.status).toBe(409);
    expect(undo.body.code).toBe('UNDO_UNAVAILABLE');
    expect(undo.body.error).toMatch(/the data of .*Heart rate.* it deleted was too large for the change log/);
    expect(undo.body.error).toContain('50 000 rows or 2 MB');
  });

  it('over a card that has rows, keeps the old rows until the new ones are all in; a write meanwhile is 409 CARD_LOADING', async () => {
    s = await startServer();
    drop(bigManifest(ROWS / 2, 'Heart rate', 60));
    expect((await watchLoad(ROWS / 2, () => backups() === 1)).counts.has(ROWS / 2)).toBe(true);
    let refused: { status: number; code?: string } | undefined;
    drop(bigManifest(ROWS, 'Heart rate', 90));
    const seen = await watchLoad(
      ROWS,
      () => backups() === 2,
      async () => {
        const r = await server().api('/api/manifests/big/rows', {
          json: { value: { date: '2030-01-01T00:00:00.000Z', bpm: 1 } },
        });
        refused = { status: r.status, code: r.body?.code };
      },
    );
    expect(seen.answeredWhileLoading).toBe(true);
    expect(refused).toEqual({ status: 409, code: 'CARD_LOADING' });
    expect([...seen.counts].filter((n) => n !== undefined).sort()).toEqual([ROWS / 2, ROWS]);
    const first = (await server().api('/api/manifests/big/rows?limit=1&order=asc')).body;
    expect(first).toMatchObject({ total: ROWS, rows: [{ bpm: 90 }] });
  });

  it('over a card that has rows, the last step (the old rows giving way to the new) does not hold the server either', async () => {
    s = await startServer();
    drop(bigManifest(ROWS, 'Heart rate', 60));
    expect((await watchLoad(ROWS, () => backups() === 1)).counts.has(ROWS)).toBe(true);
    // every new row stored (under the key of rows being filled), the card not changed yet
    const staged = () =>
      server()
        .inst.db.prepare(
          'SELECT count(*) FROM card_rows WHERE card_id = (SELECT card_id FROM card_state WHERE version = 0)',
        )
        .pluck()
        .get() as number;
    const first = async () =>
      (await server().api('/api/manifests/big/rows?limit=1&order=asc')).body.rows[0].bpm;
    drop(bigManifest(ROWS, 'Heart rate', 90));
    let answeredWhileCommitting = false;
    const giveUp = Date.now() + 60_000;
    while ((await first()) === 60 && Date.now() < giveUp) {
      const allIn = staged() === ROWS;
      const health = await server().api('/healthz');
      if (allIn && health.status === 200 && (await first()) === 60) answeredWhileCommitting = true;
      await sleep(1);
    }
    expect(await first()).toBe(90);
    expect(answeredWhileCommitting).toBe(true);
    expect(await listedRows()).toBe(ROWS);
  });

  it('saved again while it loads: the newer save is what the card becomes, and it is not written over', async () => {
    s = await startServer();
    const small = `${JSON.stringify({ $schema: 'klebb.datafile.v1', meta: { id: 'big', label: 'Saved again' } })}\n`;
    drop(bigManifest(ROWS));
    const seen = await watchLoad(
      0,
      () => backups() === 1,
      async () => drop(small),
    );
    expect(seen.answeredWhileLoading).toBe(true);
    const giveUp = Date.now() + 10_000;
    let card = await server().api('/api/manifests/big');
    while (card.body?.meta?.label !== 'Saved again' && Date.now() < giveUp) {
      await sleep(20);
      card = await server().api('/api/manifests/big');
    }
    expect(card.body.meta.label).toBe('Saved again');
    expect(await listedRows()).toBe(0);
    expect(fs.readFileSync(path.join(server().dataDir, 'big.json'), 'utf8')).toBe(small);
    expect(backups()).toBe(0);
  });

  it('rows a crash left half stored are removed at the next start; a stop mid-load leaves none', async () => {
    const box = sandboxHome('klebb-large-load-');
    try {
      s = await startServer({ home: box.home });
      drop(bigManifest(ROWS));
      // stopped while it loads: nothing of it stays, the file is loaded again at the next start
      let stopped = false;
      await watchLoad(
        ROWS,
        () => backups() === 1,
        async () => {
          stopped = true;
          await server().close({ keepHome: true });
        },
      ).catch(() => undefined);
      if (!stopped) await server().close({ keepHome: true });
      s = undefined;
      expect(stopped).toBe(true);
      const db = new Database(path.join(box.home, 'db', 'klebb.sqlite'));
      expect(db.prepare("SELECT count(*) FROM card_rows WHERE card_id = 'big'").pluck().get()).toBe(0);
      const file = JSON.parse(fs.readFileSync(path.join(box.dataDir, 'big.json'), 'utf8'));
      expect(Object.keys(file)).toContain('data');
      // what a crash in the middle leaves: rows under a key marked as being filled
      db.prepare(
        "INSERT INTO card_state (card_id, shape, doc, row_count, version, updated_at) VALUES ('ghost', 'none', NULL, 0, 0, '')",
      ).run();
      db.prepare("INSERT INTO card_rows (card_id, pos, body) VALUES ('ghost', 0, '{}')").run();
      db.close();
      s = await startServer({ home: box.home });
      const count = (sql: string) => s?.inst.db.prepare(sql).pluck().get();
      expect(count("SELECT count(*) FROM card_rows WHERE card_id = 'ghost'")).toBe(0);
      expect(count('SELECT count(*) FROM card_state WHERE version = 0')).toBe(0);
      expect(count("SELECT count(*) FROM card_rows WHERE card_id = 'big'")).toBe(ROWS);
      expect(await listedRows()).toBe(ROWS);
    } finally {
      await s?.close();
      s = undefined;
      box.remove();
    }
  });
});

describe('the copy kept of a card file dropped in with its data', () => {
  it('never overwrites an earlier copy of the same second (two drops within a second keep both originals)', async () => {
    s = await startServer();
    // copies already there for this second and the next few, as a drop a moment ago leaves them
    const now = Date.now();
    const earlier = [0, 1, 2, 3, 4].map((k) =>
      path.join(server().dataDir, backupFileName('big.json', new Date(now + k * 1000))),
    );
    for (const f of earlier) fs.writeFileSync(f, 'the original of an earlier drop');
    for (const [rows, done] of [
      [20, 20],
      [ROWS, ROWS],
    ]) {
      drop(bigManifest(rows));
      for (let i = 0; i < 1200 && (await listedRows()) !== done; i++) await sleep(50);
      expect(await listedRows()).toBe(done);
    }
    for (const f of earlier) expect(fs.readFileSync(f, 'utf8')).toBe('the original of an earlier drop');
    const kept = fs
      .readdirSync(server().dataDir)
      .filter((n) => n.startsWith('big.json.') && !earlier.includes(path.join(server().dataDir, n)));
    expect(kept).toHaveLength(2);
    for (const n of kept) expect(n).toMatch(/^big\.json\.\d{8}T\d{6}Z-\d+\.json$/);
  });
});
