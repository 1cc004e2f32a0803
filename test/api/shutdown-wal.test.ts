/**
 * After SIGTERM the server exits 0 with the
 * WAL checkpointed into the main file, so klebb.sqlite copied ALONE (no -wal, no -shm) holds
 * every row. And a SIGTERM that lands while appends are in flight loses none that were
 * acknowledged.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertDistBuilt,
  type ChildServer,
  killAllChildren,
  spawnServer,
  writeableCard,
} from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { readTemplate } from '../helpers/templates.js';

/** 1095 daily weight rows, 2023-04-21 … 2026-04-19 (three years of a daily habit). */
function dailyRows(): { date: string; kg: number }[] {
  const rows: { date: string; kg: number }[] = [];
  const start = Date.UTC(2023, 3, 21);
  for (let i = 0; i < 1095; i++) {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    rows.push({ date, kg: Math.round((80 + Math.sin(i / 20) * 3) * 10) / 10 });
  }
  return rows;
}

describe('SIGTERM leaves a complete main database file', () => {
  const box = sandboxHome('klebb-wal-');
  const copyDir = sandboxHome('klebb-wal-copy-');
  afterAll(async () => {
    await killAllChildren();
    box.remove();
    copyDir.remove();
  });

  it('exits 0, the -wal is gone or empty, and klebb.sqlite alone holds all 1095 rows', {
    timeout: 60_000,
  }, async () => {
    assertDistBuilt();
    const rows = dailyRows();
    expect(rows[0].date).toBe('2023-04-21');
    expect(rows[rows.length - 1].date).toBe('2026-04-19');

    const child = await spawnServer({ home: box.home });
    const weight = readTemplate('weight');
    const created = await child.api('/api/manifests', { json: { ...weight, data: [] } });
    expect(created.status, created.text).toBe(201);
    const w = await child.api('/api/manifests/weight/data', { json: { data: rows } });
    expect(w.status, w.text).toBe(200);

    const exit = await child.stop();
    expect(exit.forced, `SIGTERM did not stop the server; output:\n${child.output()}`).toBe(false);
    expect(exit, child.output()).toEqual({ code: 0, signal: null, forced: false });

    const dbFile = path.join(box.home, 'db/klebb.sqlite');
    const wal = `${dbFile}-wal`;
    const walBytes = fs.existsSync(wal) ? fs.statSync(wal).size : 0;
    expect(walBytes, `${wal} after a clean shutdown`).toBe(0);

    fs.mkdirSync(copyDir.home, { recursive: true });
    const alone = path.join(copyDir.home, 'x.sqlite');
    fs.copyFileSync(dbFile, alone);
    expect(fs.readdirSync(copyDir.home)).toEqual(['x.sqlite']);
    const db = new Database(alone);
    try {
      expect(db.prepare(`SELECT count(*) FROM card_rows WHERE card_id = 'weight'`).pluck().get()).toBe(1095);
      const last = db
        .prepare(`SELECT body FROM card_rows WHERE card_id = 'weight' ORDER BY pos DESC LIMIT 1`)
        .pluck()
        .get() as string;
      expect(JSON.parse(last)).toEqual(rows[rows.length - 1]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});

describe('SIGTERM while appends are in flight', () => {
  const boxes: { remove(): void }[] = [];
  afterAll(async () => {
    await killAllChildren();
    for (const b of boxes) b.remove();
  });

  /**
   * Starts 20 appends without awaiting them and sends SIGTERM: at once (`now`), or as soon as the
   * first of them is acknowledged (`after-first-ack`, so the rest are surely at the server).
   * Asserts exit code 0 and that every acknowledged append is there after a restart.
   */
  async function round(when: 'now' | 'after-first-ack') {
    const box = sandboxHome('klebb-term-');
    boxes.push(box);
    const CARD = 'inflight';
    let child: ChildServer = await spawnServer({ home: box.home });
    const created = await child.api('/api/manifests', { json: writeableCard(CARD) });
    expect(created.status, created.text).toBe(201);

    let firstAck: () => void = () => {};
    const firstAcked = new Promise<void>((r) => {
      firstAck = r;
    });
    const pending = Array.from({ length: 20 }, (_, seq) =>
      child
        .api(`/api/manifests/${CARD}/rows`, { json: { value: { seq } } })
        .then((r) => {
          if (r.status >= 200 && r.status < 300) firstAck();
          return { seq, status: r.status };
        })
        .catch(() => ({ seq, status: 0 })),
    );
    if (when === 'after-first-ack') {
      await Promise.race([firstAcked, Promise.all(pending)]);
    }
    child.signal('SIGTERM');
    const results = await Promise.all(pending);
    const exit = await child.stop();
    expect(exit, child.output()).toEqual({ code: 0, signal: null, forced: false });

    const acked = results.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.seq);
    child = await spawnServer({ home: box.home });
    const d = await child.api(`/api/manifests/${CARD}/data`);
    expect(d.status).toBe(200);
    const seqs = (d.body.data as { seq: number }[]).map((row) => row.seq);
    console.log(
      `[shutdown-wal] SIGTERM ${when}: 20 in flight, acknowledged ${acked.length}, stored ${seqs.length} ` +
        `(stored but not acknowledged: ${seqs.filter((x) => !acked.includes(x)).length}); statuses ${JSON.stringify(results.map((r) => r.status))}`,
    );
    for (const seq of acked)
      expect(
        seqs.filter((x) => x === seq),
        `acknowledged seq ${seq}`,
      ).toHaveLength(1);
    // only what was sent, each at most once
    expect(seqs.every((x) => Number.isInteger(x) && x >= 0 && x < 20)).toBe(true);
    expect(new Set(seqs).size).toBe(seqs.length);

    const again = await child.stop();
    expect(again, child.output()).toEqual({ code: 0, signal: null, forced: false });
    return { acked, seqs };
  }

  it('SIGTERM right after starting them: exits 0, every acknowledged append kept', {
    timeout: 60_000,
  }, async () => {
    assertDistBuilt();
    await round('now');
  });

  it('SIGTERM once the first is acknowledged: exits 0, every acknowledged append kept', {
    timeout: 60_000,
  }, async () => {
    assertDistBuilt();
    const { acked } = await round('after-first-ack');
    expect(acked.length).toBeGreaterThanOrEqual(1);
  });
});
